package http

import (
	"net/url"
	"strings"
	"testing"
)

// urlEncodedTests are --data-urlencode's forms and what curl 7.88 sent
// for each ("@-" reads the stdin given).
var urlEncodedTests = []struct {
	arg, stdin, want string
}{
	{"hello world", "", "hello+world"},
	{"=a b", "", "a+b"},
	{"q=hello world/&x", "", "q=hello+world%2F%26x"},
	{"plain+&", "", "plain%2B%26"},
	{"a=b=c", "", "a=b%3Dc"},
	{"a@b=c", "", "a@b=c"}, // the first "=" wins: the name is "a@b"
	{"=", "", ""},
	{"", "", ""},
	{"n=~-._*'()!", "", "n=~-._%2A%27%28%29%21"},
	{"n=é\x00\r\n", "", "n=%C3%A9%00%0D%0A"},
	{"n@-", "a b\r\n", "n=a+b%0D%0A"},
	{"@-", "x&y", "x%26y"},
}

func TestURLEncoded(t *testing.T) {
	for _, tc := range urlEncodedTests {
		got, err := urlEncoded(tc.arg, strings.NewReader(tc.stdin))
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.arg, got, err, tc.want)
		}
	}
}

// FuzzURLEncoded: whatever the value, --data-urlencode keeps the name as
// given, and its content comes back from the encoding unchanged; the
// encoding is a form's (Go's url.QueryEscape, which escapes what curl
// does), so that no byte of the content can end a field ("&", "=") or
// be read as another ("+").
func FuzzURLEncoded(f *testing.F) {
	for _, tc := range urlEncodedTests {
		f.Add(tc.arg)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		name, content, ok := strings.Cut(arg, "=")
		if !ok && strings.Contains(arg, "@") {
			return // names a file
		}
		if !ok {
			name, content = "", arg
		}
		got, err := urlEncoded(arg, strings.NewReader(""))
		if err != nil {
			t.Fatal(err)
		}
		enc := got
		if name != "" {
			var found bool
			if enc, found = strings.CutPrefix(got, name+"="); !found {
				t.Fatalf("%q: %q lost its name %q", arg, got, name)
			}
		}
		if want := url.QueryEscape(content); enc != want {
			t.Fatalf("%q: content encoded %q, want %q", arg, enc, want)
		}
		if back, err := url.QueryUnescape(enc); err != nil || back != content {
			t.Fatalf("%q: %q decodes to %q, %v", arg, enc, back, err)
		}
	})
}

func TestTextOf(t *testing.T) {
	for in, want := range map[string]string{
		"a=1\r\nb=2\n":  "a=1b=2",
		"a\rb\n":        "ab", // curl 7 cut a line at a lone CR; curl 8 drops it
		"a\x00b\r\n":    "a",
		"":              "",
		"\n\n\r\n":      "",
		"one line only": "one line only",
	} {
		if got := string(textOf([]byte(in))); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
