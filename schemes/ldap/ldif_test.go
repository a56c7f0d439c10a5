package ldap

import (
	"strings"
	"testing"
)

// TestLDIFLines: what is written plain and what in base64, as libldap's
// ldif_sput_wrap decides, and where long lines fold.
func TestLDIFLines(t *testing.T) {
	long := strings.Repeat("a", 100)
	for _, tc := range []struct {
		name, value, want string
	}{
		{"cn", "Babs Jensen", "cn: Babs Jensen\n"},
		{"cn", "", "cn:\n"},
		{"cn", " lead", "cn:: IGxlYWQ=\n"},
		{"cn", "trail ", "cn:: dHJhaWwg\n"},
		{"cn", ":colon", "cn:: OmNvbG9u\n"},
		{"cn", "<less", "cn:: PGxlc3M=\n"},
		{"cn", "a:b<c", "cn: a:b<c\n"},
		{"cn", "Émile", "cn:: w4ltaWxl\n"},
		{"cn", "a\nb", "cn:: YQpi\n"},
		{"userPassword", "secret", "userPassword:: c2VjcmV0\n"},
		{"userCertificate;binary", "x", "userCertificate;binary:: eA==\n"},
		// 78 bytes fit; the 79th goes to a continuation line after a space.
		{"cn", long, "cn: " + long[:74] + "\n " + long[74:] + "\n"},
	} {
		got := string(appendLine(nil, []byte(tc.name), []byte(tc.value)))
		if got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestLDIFEntry(t *testing.T) {
	got := string(appendEntry(nil, []byte("cn=a,dc=x"), []attribute{{[]byte("objectClass"), [][]byte{[]byte("top"), []byte("person")}}, {[]byte("cn"), [][]byte{[]byte("a")}}}))
	want := "dn: cn=a,dc=x\nobjectClass: top\nobjectClass: person\ncn: a\n\n"
	if got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestReference: references are written as ldapsearch -LLL 2.5.13 wrote
// them for the same URLs (a fake server's SearchResultReferences): "#
// ref" and the URL, folded after 79 bytes, "#ref" for an empty one, an
// empty line after the lot; a control byte is written %XX (ldapsearch
// writes it as it is: a newline would start a line of LDIF).
func TestReference(t *testing.T) {
	long := "ldap://127.0.0.1:3389/ou=team1,ou=dept1,dc=example,dc=org??sub?(cn=something%20quite%20long%20here%20and%20more)"
	for _, tc := range []struct {
		refs []string
		want string
	}{
		{[]string{"ldap://127.0.0.1:3389/ou=team1,ou=dept1,dc=example,dc=org??sub", long, "ldap://h/caf%C3%A9"},
			"# refldap://127.0.0.1:3389/ou=team1,ou=dept1,dc=example,dc=org??sub\n" +
				"# refldap://127.0.0.1:3389/ou=team1,ou=dept1,dc=example,dc=org??sub?(cn=somethi\n" +
				" ng%20quite%20long%20here%20and%20more)\n" +
				"# refldap://h/caf%C3%A9\n\n"},
		{[]string{"ldap://h/caf\xc3\xa9", " lead", "", strings.Repeat("x", 160)},
			"# refldap://h/caf\xc3\xa9\n# ref lead\n#ref\n# ref" + strings.Repeat("x", 74) + "\n " + strings.Repeat("x", 78) + "\n " + strings.Repeat("x", 8) + "\n\n"},
		{[]string{"ldap://h/a\ndn: cn=fake\x7f"}, "# refldap://h/a%0Adn: cn=fake%7F\n\n"},
	} {
		var refs [][]byte
		for _, r := range tc.refs {
			refs = append(refs, []byte(r))
		}
		if got := string(appendReference(nil, refs)); got != tc.want {
			t.Errorf("%q:\n%s\nwant\n%s", tc.refs, got, tc.want)
		}
	}
}
