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

// outcome is what a result code means to the caller: the kind of the
// failure, and whether the same request might succeed later.
type outcome struct {
	kind      schemes.Kind
	retryable bool
}

// outcomes is the meaning of each failure code this package tells apart;
// a code not here (RFC 4511 A.1 lists more, and servers add their own) is
// a protocol failure, not retried: urlget cannot tell what else to do.
var outcomes = map[uint16]outcome{
	resultNoSuchObject: {schemes.KindNotFound, false}, // the DN is not there: fs.ErrNotExist
	// Who the client is, or how it asked, does not let it read: the
	// same request fails again until the login or the security changes.
	resultInvalidCredentials:     {schemes.KindPermission, false},
	resultInsufficientAccess:     {schemes.KindPermission, false},
	resultInappropriateAuth:      {schemes.KindPermission, false},
	resultStrongerAuthRequired:   {schemes.KindPermission, false},
	resultConfidentialityReq:     {schemes.KindPermission, false},
	resultAuthMethodNotSupported: {schemes.KindPermission, false},
	// The server cannot serve now (§4.1.9: "busy", "unavailable"): later
	// it may.
	resultBusy:               {schemes.KindBusy, true},
	resultUnavailable:        {schemes.KindBusy, true},
	resultTimeLimitExceeded:  {schemes.KindTimeout, false}, // the server's limit: the same search meets it again
	resultInvalidDNSyntax:    {schemes.KindUsage, false},   // the URL's DN: the user's to fix
	resultUnwillingToPerform: {schemes.KindUnsupported, false},
}

// outcomeOf is what code means: its row of outcomes, else a protocol
// failure.
func outcomeOf(code uint16) outcome {
	if o, ok := outcomes[code]; ok {
		return o
	}
	return outcome{kind: schemes.KindProtocol}
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
		o := outcomeOf(le.code)
		return &schemes.Error{Scheme: scheme, Phase: phase, Kind: o.kind, Code: int(le.code),
			Retryable: o.retryable, Msg: le.Error()}
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
