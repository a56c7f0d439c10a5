package gateway

import (
	"bufio"
	"net/http"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
)

// addressCases are URLs of every scheme, in the forms whose escapes must
// survive the trip through a browser and back byte for byte. back is what
// URLOf gives for the address: the URL itself ("" in the table) unless
// the address had to escape something or drop a fragment.
var addressCases = []struct {
	url, addr, back string
}{
	{"gopher://h:7070/1/", "/gopher/h:7070/1/", ""},
	{"gopher://h/7/search%09two%20words", "/gopher/h/7/search%09two%20words", ""},
	{"gopher://h:7071/0/about%09%09+", "/gopher/h:7071/0/about%09%09+", ""},
	{"gopher://h:7071/0/about%09%09+text/plain%20En_US", "/gopher/h:7071/0/about%09%09+text/plain%20En_US", ""},
	{"gopher://h/0/a%09q%09!", "/gopher/h/0/a%09q%09!", ""},
	{"gophers://h/1/", "/gophers/h/1/", ""},
	{"ftp://127.0.0.1:2121/README.txt", "/ftp/127.0.0.1:2121/README.txt", ""},
	{"ftp://h/pub/a.txt;type=a", "/ftp/h/pub/a.txt;type=a", ""},
	{"ftp://h/%2Fetc/motd", "/ftp/h/%2Fetc/motd", ""},
	{"ftp://u:p%40w@h//x/;type=d", "/ftp/u:p%40w@h//x/;type=d", ""},
	{"ftp://h/a%2fb%3Bc", "/ftp/h/a%2fb%3Bc", ""},
	{"news:1234@example.com", "/news/1234@example.com", ""},
	{"news:<1234@example.com>", "/news/%3C1234@example.com%3E", "news:%3C1234@example.com%3E"},
	{"news:%3C1234@example.com%3E", "/news/%3C1234@example.com%3E", ""},
	{"news:comp.infosystems.gopher", "/news/comp.infosystems.gopher", ""},
	{"news:*", "/news/*", ""},
	{"news://h:119/comp.lang.go", "/news///h:119/comp.lang.go", ""},
	{"nntp://h/comp.lang.go/12", "/nntp/h/comp.lang.go/12", ""},
	{"nntps://h:563/alt.test", "/nntps/h:563/alt.test", ""},
	{"wais://h:210/db?gopher+protocol", "/wais/h:210/db?gopher+protocol", ""},
	{"wais://h/db?two%20words", "/wais/h/db?two%20words", ""},
	{"wais://h/db/TEXT/123/x=y;", "/wais/h/db/TEXT/123/x=y;", ""},
	{"wais://h:210/db/TEXT/0%2F3%3Ba/x%3Dy;z=%00", "/wais/h:210/db/TEXT/0%2F3%3Ba/x%3Dy;z=%00", ""},
	{"prospero://h:1525/usr/pfs/a;type=file", "/prospero/h:1525/usr/pfs/a;type=file", ""},
	{"prospero://h/a%20b/c;version=2", "/prospero/h/a%20b/c;version=2", ""},
	{"http://127.0.0.1:8080/a/b?x=1&y=%2F", "/http/127.0.0.1:8080/a/b?x=1&y=%2F", ""},
	{"https://[::1]:8443/?", "/https/[::1]:8443/?", ""},
	{"http://h/a#frag", "/http/h/a", "http://h/a"},
	{"HTTP://h/", "/http/h/", "http://h/"},
	{"http://h/a b\"<>", "/http/h/a%20b%22%3C%3E", "http://h/a%20b%22%3C%3E"},
	{"http://h/\u00e9", "/http/h/%C3%A9", "http://h/%C3%A9"},
	{"http://h/a%zz%4", "/http/h/a%25zz%254", "http://h/a%25zz%254"},
	{"file:///etc/motd", "/file//etc/motd", ""},
	{"file://localhost/tmp/a%20b", "/file/localhost/tmp/a%20b", ""},
	{"telnet://user@h:23/", "/telnet/user@h:23/", ""},
	{"mailto:a@b.example", "/mailto/a@b.example", ""},
	{"mailto:a@b.example?subject=hi%20there", "/mailto/a@b.example?subject=hi%20there", ""},
	{"http:no-authority", "", ""},
	{"no scheme", "", ""},
	{"", "", ""},
}

// request reads target as a server would: RequestURI is the raw target.
func request(t testing.TB, target string) *http.Request {
	t.Helper()
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:8070\r\n\r\n")))
	if err != nil {
		t.Fatalf("reading GET %s: %v", target, err)
	}
	return r
}

func TestAddress(t *testing.T) {
	reg := fetch.DefaultRegistry()
	for _, c := range addressCases {
		got := Address(c.url)
		if got != c.addr {
			t.Errorf("Address(%q) = %q, want %q", c.url, got, c.addr)
			continue
		}
		if got == "" {
			continue
		}
		back, err := URLOf(request(t, got))
		want := c.back
		if want == "" {
			want = c.url
		}
		if err != nil || back != want {
			t.Errorf("URLOf(%q) = %q, %v; want %q", got, back, err, want)
		}
		// What comes back is what the scheme parses: the table holds real
		// URLs of each scheme, not shapes that only look right.
		if _, err := reg.Parse(back); err != nil {
			t.Errorf("%q does not parse: %v", back, err)
		}
	}
}

func TestURLOfRefuses(t *testing.T) {
	for _, target := range []string{"/", "/favicon.ico", "/go?url=x", "/1bad/h/", "*"} {
		if u, err := URLOf(request(t, target)); err == nil {
			t.Errorf("URLOf(%q) = %q, want an error", target, u)
		}
	}
	// Absolute form (proxy mode) is the URL itself.
	if u, err := URLOf(request(t, "gopher://h:70/7/s%09x")); err != nil || u != "gopher://h:70/7/s%09x" {
		t.Errorf("absolute form: %q, %v", u, err)
	}
}

// FuzzAddress checks the round trip on any input: an address URLOf reads
// back gives the URL (less its fragment, with what Address escaped
// escaped), and the address of that URL is the same address.
func FuzzAddress(f *testing.F) {
	for _, c := range addressCases {
		f.Add(c.url)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		addr := Address(raw)
		if addr == "" {
			return
		}
		r, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET " + addr + " HTTP/1.1\r\nHost: h\r\n\r\n")))
		if err != nil {
			t.Fatalf("Address(%q) = %q, which a server cannot read: %v", raw, addr, err)
		}
		back, err := URLOf(r)
		if err != nil {
			t.Fatalf("URLOf(%q): %v", addr, err)
		}
		if again := Address(back); again != addr {
			t.Fatalf("Address(%q) = %q, then URLOf gave %q, whose address is %q", raw, addr, back, again)
		}
	})
}
