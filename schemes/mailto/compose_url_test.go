package mailto

import (
	"reflect"
	"testing"

	"github.com/urlget/urlget/schemes"
)

func TestWithMessage(t *testing.T) {
	for _, c := range []struct{ url, subject, body, want string }{
		{"mailto:a@x", "hi", "line 1\nline 2", "mailto:a@x?subject=hi&body=line%201%0Aline%202"},
		{"mailto:a@x?subject=old&cc=b@y&body=old", "", "", "mailto:a@x?cc=b@y&body="},
		{"mailto:a@x", "a&b=c", "+", "mailto:a@x?subject=a%26b%3Dc&body=%2B"},
	} {
		u, err := schemes.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.WithMessage(c.subject, c.body)
		if err != nil || got.String() != c.want {
			t.Errorf("%s WithMessage(%q, %q) = %v, %v; want %s", c.url, c.subject, c.body, got, err, c.want)
			continue
		}
		// An empty body is still a body: the handler must not read one
		// from its standard input instead.
		if b, ok := got.(*URL).Header("body"); b != c.body || !ok {
			t.Errorf("body reads back as %q, %v", b, ok)
		}
	}
}

// TestDraft: the message a URL describes, decoded, recipients from the
// addresses and the to, cc and bcc fields (RFC 6068 §2).
func TestDraft(t *testing.T) {
	for _, c := range []struct {
		url  string
		want schemes.Draft
	}{
		{"mailto:a@x", schemes.Draft{To: []string{"a@x"}}},
		{"mailto:a@x,b@y?To=c@z&cc=d@w,%20e@v&bcc=f@u&Subject=Hello%20%3Cthere%3E&body=line%201%0Aline%202",
			schemes.Draft{To: []string{"a@x", "b@y", "c@z"}, Cc: []string{"d@w", "e@v"}, Bcc: []string{"f@u"},
				Subject: "Hello <there>", Body: "line 1\nline 2"}},
		{"mailto:?to=a@x&subject=one&subject=two&body=", schemes.Draft{To: []string{"a@x"}, Subject: "one"}},
	} {
		if got := request(t, c.url).URL.(*URL).Draft(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s Draft() = %#v, want %#v", c.url, got, c.want)
		}
	}
}
