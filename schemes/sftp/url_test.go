package sftp

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

// tests are sftp URLs of the draft and of curl's reading, with edge
// cases. str is what String must give ("" means the input itself);
// errPart, when set, is the part Parse must name in its KindUsage error.
var tests = []struct {
	raw     string
	home    bool
	path    string
	dir     bool
	user    string
	str     string
	errPart string
}{
	{raw: "sftp://host/", path: "/", dir: true},
	{raw: "sftp://host", path: "/", dir: true, str: "sftp://host/"},
	{raw: "sftp://user@host/pub/file.txt", path: "/pub/file.txt", user: "user"},
	{raw: "sftp://user:pw@host:2222/pub/", path: "/pub/", dir: true, user: "user"},
	{raw: "sftp://host/~/", home: true, path: ".", dir: true},
	{raw: "sftp://host/~", home: true, path: ".", dir: true, str: "sftp://host/~/"},
	{raw: "sftp://host/%7E/notes", home: true, path: "notes", str: "sftp://host/~/notes"},
	{raw: "sftp://host/~/dir/a%20b", home: true, path: "dir/a b"},
	{raw: "sftp://host/a/~", path: "/a/~", str: "sftp://host/a/%7E"},
	{raw: "sftp://host//etc/motd", path: "//etc/motd"},
	{raw: "sftp://host/a%3Bb", path: "/a;b"},
	{raw: "sftp://host:22/x", path: "/x", str: "sftp://host/x"},
	{raw: "sftp://host/a%2Fb", errPart: "path"},
	{raw: "sftp://host/a%00b", errPart: "path"},
	{raw: "sftp:///x", errPart: "host"},
}

func TestParse(t *testing.T) {
	parse := schemestest.Parser(Parse)
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			l, err := parse(tt.raw)
			if tt.errPart != "" {
				schemestest.UsageError(t, err, tt.errPart)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Home != tt.home || l.RemotePath() != tt.path || l.IsDir() != tt.dir {
				t.Errorf("home %v path %q dir %v, want %v %q %v", l.Home, l.RemotePath(), l.IsDir(), tt.home, tt.path, tt.dir)
			}
			if u := l.Generic().User; (u == nil) != (tt.user == "") || u != nil && *u != tt.user {
				t.Errorf("user %v, want %q", u, tt.user)
			}
			want := tt.str
			if want == "" {
				want = tt.raw
			}
			if got := l.String(); got != want {
				t.Errorf("String() = %q, want %q", got, want)
			}
			schemestest.RoundTrip(t, l, parse)
		})
	}
}

// TestChild checks that a listing's entries keep the login and name the
// entry under the listed directory, a directory's with a final "/".
func TestChild(t *testing.T) {
	parse := schemestest.Parser(Parse)
	for _, c := range []struct {
		dir, name string
		isDir     bool
		want      string
	}{
		{"sftp://u:p@h/pub/", "f.txt", false, "sftp://u:p@h/pub/f.txt"},
		{"sftp://u:p@h/pub", "sub", true, "sftp://u:p@h/pub/sub/"},
		{"sftp://h/~/", "a b", false, "sftp://h/~/a%20b"},
		{"sftp://h/", "x;y", false, "sftp://h/x%3By"},
	} {
		l, err := parse(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		got := l.child(c.name, c.isDir)
		if got.String() != c.want {
			t.Errorf("%s + %q = %s, want %s", c.dir, c.name, got, c.want)
		}
		schemestest.RoundTrip(t, got, parse)
	}
}

// FuzzParseSFTP checks that Parse never panics and that whatever it
// accepts formats to a URL that parses to an equal value.
func FuzzParseSFTP(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		schemestest.FuzzRoundTrip(t, raw, schemestest.Parser(Parse))
	})
}
