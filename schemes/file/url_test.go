package file

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parse runs the generic parser and this package's, as the registry does.
var parse = schemestest.Parser(Parse)

var parseTests = []struct {
	raw     string
	host    string
	path    string
	str     string // String(), the round-trip form
	errPart string // non-empty: parsing fails with KindUsage naming this part
}{
	// RFC 1738 §3.10's example.
	{raw: "<URL:file://vms.host.edu/disk$user/my/notes/note12345.txt>", host: "vms.host.edu",
		path: "/disk$user/my/notes/note12345.txt", str: "file://vms.host.edu/disk$user/my/notes/note12345.txt"},
	{raw: "file://vms.host.edu/disk$user/my/notes/note12345.txt", host: "vms.host.edu",
		path: "/disk$user/my/notes/note12345.txt", str: "file://vms.host.edu/disk$user/my/notes/note12345.txt"},
	// Empty host and "localhost" (RFC 1738 §3.10, the draft's "void host").
	{raw: "file:///etc/passwd", path: "/etc/passwd", str: "file:///etc/passwd"},
	// "localhost" is the empty host: one URL, written file:///.
	{raw: "file://localhost/etc/passwd", path: "/etc/passwd", str: "file:///etc/passwd"},
	{raw: "FILE://LocalHost/etc/", path: "/etc/", str: "file:///etc/"},
	{raw: "file:///", path: "/", str: "file:///"},
	{raw: "file://localhost/", path: "/", str: "file:///"},
	{raw: "file://localhost", path: "/", str: "file:///"},
	{raw: "file://", path: "/", str: "file:///"},
	{raw: "file://localhost.example/x", host: "localhost.example", path: "/x", str: "file://localhost.example/x"},
	// file:/path, common in the wild: local, normalized.
	{raw: "file:/etc/passwd", path: "/etc/passwd", str: "file:///etc/passwd"},
	{raw: "file:/", path: "/", str: "file:///"},
	// Decoding and re-escaping.
	{raw: "file:///a%20b/c%3Bd", path: "/a b/c;d", str: "file:///a%20b/c%3Bd"},
	{raw: "file:///a b", path: "/a b", str: "file:///a%20b"},
	{raw: "file:///a%2Db", path: "/a-b", str: "file:///a-b"},
	{raw: "file:///a?b", path: "/a?b", str: "file:///a%3Fb"},
	{raw: "file:///a~b", path: "/a~b", str: "file:///a%7Eb"},
	{raw: "file:///%E2%82%AC", path: "/\u20ac", str: "file:///%E2%82%AC"},
	{raw: "file:///a%0Ab", path: "/a\nb", str: "file:///a%0Ab"},
	{raw: "file:///a:b@c&d=e", path: "/a:b@c&d=e", str: "file:///a:b@c&d=e"},
	{raw: "file:////server/share", path: "//server/share", str: "file:////server/share"},
	{raw: "file:///a//b/", path: "/a//b/", str: "file:///a//b/"},
	{raw: "file:///x#frag", path: "/x", str: "file:///x#frag"},
	{raw: "file:///x#%7e%41", path: "/x", str: "file:///x#%7EA"},
	{raw: "file:///x#", path: "/x", str: "file:///x"},
	// Errors.
	{raw: "file:///a%2Fb", errPart: "path"},
	{raw: "file:///a%2fb/c", errPart: "path"},
	{raw: "file:///a%00b", errPart: "path"},
	{raw: "file:relative/x", errPart: "path"},
	{raw: "file:", errPart: "path"},
	{raw: "file://user@host/x", errPart: "user"},
	{raw: "file://user:secret@host/x", errPart: "user"},
	{raw: "file://host:21/x", errPart: "port"},
	{raw: "file:///a%zz", errPart: "url"},
	{raw: "file://bad host/x", errPart: "host"},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.raw, func(t *testing.T) {
			f, err := parse(tt.raw)
			if tt.errPart != "" {
				if e := schemestest.UsageError(t, err, tt.errPart); e != nil && strings.Contains(e.Error(), "secret") {
					t.Errorf("error shows the password: %v", e)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.Host != tt.host || f.Path != tt.path {
				t.Errorf("host %q path %q, want %q %q", f.Host, f.Path, tt.host, tt.path)
			}
			if got := f.String(); got != tt.str {
				t.Errorf("String = %q, want %q", got, tt.str)
			}
			if got := f.Generic().String(); got != tt.str {
				t.Errorf("Generic().String = %q, want %q", got, tt.str)
			}
			// Equal in every field, the escaped generic parts included: more
			// than schemestest.Same asks.
			if g, ok := schemestest.RoundTrip(t, f, parse); ok && !reflect.DeepEqual(f, g) {
				t.Errorf("reparse differs: %+v vs %+v", f, g)
			}
			js, _ := json.Marshal(f.Fields())
			want, _ := json.Marshal(map[string]string{"path": tt.path})
			if string(js) != string(want) {
				t.Errorf("Fields = %s, want %s", js, want)
			}
		})
	}
}

func TestFTP(t *testing.T) {
	for raw, want := range map[string]string{
		"file://ftp.example.com/pub/x%20y.txt": "ftp://ftp.example.com/pub/x%20y.txt",
		"file://ftp.example.com/pub/dir/":      "ftp://ftp.example.com/pub/dir/",
		"file://[::1]/a":                       "ftp://[::1]/a",
	} {
		f, err := parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.FTP(); got != want {
			t.Errorf("%s: FTP = %q, want %q", raw, got, want)
		}
	}
}

func TestParseWrongScheme(t *testing.T) {
	u, _ := schemes.Parse("ftp://h/x")
	if _, err := Parse(u); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Parse(ftp URL) = %v, want KindUsage", err)
	}
}

func FuzzParseFile(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		// Equal in every field, the escaped generic parts included.
		if u, v, ok := schemestest.FuzzRoundTrip(t, raw, parse); ok && !reflect.DeepEqual(u, v) {
			t.Fatalf("%q: String %q parses to a different value: %+v vs %+v", raw, u.String(), u, v)
		}
	})
}
