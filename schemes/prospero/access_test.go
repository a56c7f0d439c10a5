package prospero

import (
	"strings"
	"testing"
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
