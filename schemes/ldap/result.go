package ldap

import (
	"errors"
	"fmt"

	goldap "github.com/go-ldap/ldap/v3"

	"github.com/urlget/urlget/schemes"
)

// The LDAP result codes this package tells apart (RFC 4511 §4.1.9 and
// Appendix A.1), as the server sends them in an LDAPResult.
const (
	resultSuccess                = 0  // RFC 4511 A.1 success
	resultOperationsError        = 1  // RFC 4511 A.1 operationsError
	resultProtocolError          = 2  // RFC 4511 A.1 protocolError
	resultTimeLimitExceeded      = 3  // RFC 4511 A.1 timeLimitExceeded
	resultSizeLimitExceeded      = 4  // RFC 4511 A.1 sizeLimitExceeded
	resultAuthMethodNotSupported = 7  // RFC 4511 A.1 authMethodNotSupported
	resultStrongerAuthRequired   = 8  // RFC 4511 A.1 strongerAuthRequired
	resultReferral               = 10 // RFC 4511 A.1 referral (§4.1.10)
	resultAdminLimitExceeded     = 11 // RFC 4511 A.1 adminLimitExceeded
	resultConfidentialityReq     = 13 // RFC 4511 A.1 confidentialityRequired
	resultNoSuchAttribute        = 16 // RFC 4511 A.1 noSuchAttribute
	resultNoSuchObject           = 32 // RFC 4511 A.1 noSuchObject
	resultInvalidDNSyntax        = 34 // RFC 4511 A.1 invalidDNSyntax
	resultInappropriateAuth      = 48 // RFC 4511 A.1 inappropriateAuthentication
	resultInvalidCredentials     = 49 // RFC 4511 A.1 invalidCredentials
	resultInsufficientAccess     = 50 // RFC 4511 A.1 insufficientAccessRights
	resultBusy                   = 51 // RFC 4511 A.1 busy
	resultUnavailable            = 52 // RFC 4511 A.1 unavailable
	resultUnwillingToPerform     = 53 // RFC 4511 A.1 unwillingToPerform
)

// kindOf is the failure kind of an LDAP result code.
func kindOf(code uint16) schemes.Kind {
	switch code {
	case resultNoSuchObject:
		return schemes.KindNotFound
	case resultInvalidCredentials, resultInsufficientAccess, resultInappropriateAuth,
		resultStrongerAuthRequired, resultConfidentialityReq, resultAuthMethodNotSupported:
		return schemes.KindPermission
	case resultBusy, resultUnavailable:
		return schemes.KindBusy
	case resultTimeLimitExceeded:
		return schemes.KindTimeout
	case resultInvalidDNSyntax:
		return schemes.KindUsage
	case resultUnwillingToPerform:
		return schemes.KindUnsupported
	}
	return schemes.KindProtocol
}

// resultError turns what go-ldap returned for an operation into a
// *schemes.Error: an LDAP result with its code and the server's message
// (clipped, printable), a network failure as transport reports it.
func resultError(scheme, phase string, err error) error {
	var le *goldap.Error
	if !errors.As(err, &le) || le.ResultCode >= goldap.ErrorNetwork {
		// go-ldap's own codes (200 and up) are no server's answer: a
		// broken connection, a malformed packet.
		inner := err
		if le != nil && le.Err != nil {
			inner = le.Err
		}
		e := schemes.IOError(scheme, phase, inner)
		if se, ok := e.(*schemes.Error); ok && se.Kind == schemes.KindOther {
			se.Kind = schemes.KindProtocol
		}
		return e
	}
	// go-ldap may wrap the server's result in an Error of its own: the
	// innermost holds the server's diagnostic message.
	for inner := (*goldap.Error)(nil); le.Err != nil && errors.As(le.Err, &inner); {
		le = inner
	}
	msg := goldap.LDAPResultCodeMap[le.ResultCode]
	if msg == "" {
		msg = fmt.Sprintf("result code %d", le.ResultCode)
	}
	if le.Err != nil {
		if d := schemes.Printable(le.Err.Error(), 200); d != "" {
			msg += ": " + d
		}
	}
	return &schemes.Error{Scheme: scheme, Phase: phase, Kind: kindOf(le.ResultCode), Code: int(le.ResultCode),
		Retryable: le.ResultCode == resultBusy || le.ResultCode == resultUnavailable, Msg: msg}
}
