package ldap

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestResultError: every result code this package names, and one it does
// not, as the *schemes.Error resultError makes of it: the kind and
// retryability of outcomes, the code kept, go-ldap's name of the code in
// the message with the server's diagnostic made printable.
func TestResultError(t *testing.T) {
	rows := []struct {
		code      uint16
		kind      schemes.Kind
		retryable bool
		msg       string // the message's start: go-ldap's name of the code
	}{
		{resultOperationsError, schemes.KindProtocol, false, "Operations Error"},
		{resultProtocolError, schemes.KindProtocol, false, "Protocol Error"},
		{resultTimeLimitExceeded, schemes.KindTimeout, false, "Time Limit Exceeded"},
		{resultSizeLimitExceeded, schemes.KindProtocol, false, "Size Limit Exceeded"},
		{resultAuthMethodNotSupported, schemes.KindPermission, false, "Auth Method Not Supported"},
		{resultStrongerAuthRequired, schemes.KindPermission, false, "Strong Auth Required"},
		{resultAdminLimitExceeded, schemes.KindProtocol, false, "Admin Limit Exceeded"},
		{resultConfidentialityReq, schemes.KindPermission, false, "Confidentiality Required"},
		{resultNoSuchAttribute, schemes.KindProtocol, false, "No Such Attribute"},
		{resultNoSuchObject, schemes.KindNotFound, false, "No Such Object"},
		{resultInvalidDNSyntax, schemes.KindUsage, false, "Invalid DN Syntax"},
		{resultInappropriateAuth, schemes.KindPermission, false, "Inappropriate Authentication"},
		{resultInvalidCredentials, schemes.KindPermission, false, "Invalid Credentials"},
		{resultInsufficientAccess, schemes.KindPermission, false, "Insufficient Access Rights"},
		{resultBusy, schemes.KindBusy, true, "Busy"},
		{resultUnavailable, schemes.KindBusy, true, "Unavailable"},
		{resultUnwillingToPerform, schemes.KindUnsupported, false, "Unwilling To Perform"},
		{4242, schemes.KindProtocol, false, "result code 4242"}, // no name anywhere
	}
	tried := map[uint16]bool{}
	for _, tc := range rows {
		tried[tc.code] = true
		err := resultError("ldap", "search", &ldapError{result{code: tc.code, diagnostic: "no\r\nway"}})
		var e *schemes.Error
		if !errors.As(err, &e) {
			t.Fatalf("code %d: %#v, want a *schemes.Error", tc.code, err)
		}
		if e.Kind != tc.kind || e.Retryable != tc.retryable || e.Code != int(tc.code) || e.Scheme != "ldap" || e.Phase != "search" {
			t.Errorf("code %d: %+v, want kind %v, retryable %t", tc.code, e, tc.kind, tc.retryable)
		}
		if !strings.HasPrefix(e.Msg, tc.msg+": ") || strings.ContainsAny(e.Msg, "\r\n") {
			t.Errorf("code %d: message %q, want %q and the diagnostic, printable", tc.code, e.Msg, tc.msg)
		}
		if notFound := errors.Is(err, fs.ErrNotExist); notFound != (tc.kind == schemes.KindNotFound) {
			t.Errorf("code %d: errors.Is(err, fs.ErrNotExist) = %t", tc.code, notFound)
		}
	}
	for code := range outcomes {
		if !tried[code] {
			t.Errorf("code %d has a row in outcomes and none here", code)
		}
	}
}
