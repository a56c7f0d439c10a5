package prospero

import (
	"os"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

func TestMethodURL(t *testing.T) {
	for _, tt := range []struct {
		method        string // tokens, "|" between, "-" for ''
		host, hsoname string // the link's
		url, why      string
	}{
		{"AFTP|INTERNET-D|127.0.0.1|ASCII|/pub/README|BINARY", "", "", "ftp://127.0.0.1/%2Fpub/README;type=i", ""},
		{"AFTP|-|-|-|-|BINARY", "FTP.EXAMPLE.ORG", "/pub/README", "ftp://ftp.example.org/%2Fpub/README;type=i", ""},
		{"FTP|-|-|-|-|TEXT", "H(2121)", "/pub/with space.txt", "ftp://h:2121/%2Fpub/with%20space.txt;type=a", ""},
		{"GOPHER|-|-|-|-|TEXT", "GOPHER.EXAMPLE.ORG(70)", "0/about.txt", "gopher://gopher.example.org:70/00/about.txt", ""},
		{"GOPHER|-|-|-|-", "g(7070)", "1/sub dir", "gopher://g:7070/11/sub%20dir", ""},
		{"TELNET|-|H(2323)|-|-", "", "", "telnet://h:2323/", ""},
		{"PROSPERO-CONTENTS|-|-|-|-", "h", "/x", "", "from the Prospero server"},
		{"LOCAL|-|-|-|-", "h", "/x", "", "LOCAL"},
		{"NFS|-|-|-|-", "h", "/x", "", "not supported"},
	} {
		m := strings.Split(tt.method, "|")
		for i := range m {
			if m[i] == "-" {
				m[i] = ""
			}
		}
		url, why := methodURL(m, tt.host, tt.hsoname)
		if url != tt.url || !strings.Contains(why, tt.why) {
			t.Errorf("%s: %q (%q), want %q (%q)", tt.method, url, why, tt.url, tt.why)
		}
	}
}

// TestLocalURL: LOCAL only with the flag and only from this host.
func TestLocalURL(t *testing.T) {
	name, _ := os.Hostname()
	for _, tt := range []struct {
		server, hsoname, path string
		allowed               bool
		url, why              string
	}{
		{"127.0.0.1", "/srv/p/a b.txt", "", true, "file:///srv/p/a%20b.txt", ""},
		{"::1", "/x", "/srv/other;1", true, "file:///srv/other%3B1", ""},
		{"LOCALHOST", "/x", "", true, "file:///x", ""},
		{name, "/x", "", true, "file:///x", ""},
		{"127.0.0.1", "/x", "", false, "", "(option prospero-local uses it when that is this host)"},
		{"192.0.2.1", "/x", "", true, "", "not this host"},
		{"127.0.0.1", "x", "", true, "", "not absolute"},
	} {
		url, why := localURL([]string{"LOCAL", "", "", "", tt.path}, tt.server, tt.hsoname, tt.allowed, schemes.Words{})
		if url != tt.url || !strings.Contains(why, tt.why) {
			t.Errorf("%s %s %v: %q (%q), want %q (%q)", tt.server, tt.hsoname, tt.allowed, url, why, tt.url, tt.why)
		}
	}
	// The option that allows it, as the caller names it.
	if _, why := localURL([]string{"LOCAL"}, "127.0.0.1", "/x", false, callerWords); !strings.Contains(why, "(<prospero-local> uses it") {
		t.Errorf("why %q, want the option in the caller's words", why)
	}
}

// callerWords are a caller's own words for options and settings
// ("<prospero-local>"), which a handler built from the declaration's
// Values uses in its messages.
var callerWords = Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()
