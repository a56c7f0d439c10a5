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

// ldapError is an LDAPResult other than success.
type ldapError struct{ result }

func (e *ldapError) Error() string {
	msg := goldap.LDAPResultCodeMap[e.code]
	if msg == "" {
		msg = fmt.Sprintf("result code %d", e.code)
	}
	if d := schemes.Printable(e.diagnostic, 200); d != "" {
		msg += ": " + d
	}
	return msg
}

// resultError turns what an operation failed with into a *schemes.Error:
// an LDAP result with its code and the server's message (printable,
// clipped), a malformed reply as a protocol error, a network failure as
// transport reports it.
func resultError(scheme, phase string, err error) error {
	var le *ldapError
	if errors.As(err, &le) {
		return &schemes.Error{Scheme: scheme, Phase: phase, Kind: kindOf(le.code), Code: int(le.code),
			Retryable: le.code == resultBusy || le.code == resultUnavailable, Msg: le.Error()}
	}
	var se *schemes.Error
	if errors.As(err, &se) {
		return err
	}
	e := schemes.IOError(scheme, phase, err)
	if se, ok := e.(*schemes.Error); ok && se.Kind == schemes.KindOther {
		se.Kind = schemes.KindProtocol
	}
	return e
}
