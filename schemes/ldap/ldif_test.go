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
