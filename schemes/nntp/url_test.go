package nntp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parseNNTP runs the generic parser and ParseNNTP, as the registry does.
var parseNNTP = schemestest.Parser(Parse)

func TestParseNNTP(t *testing.T) {
	tests := []struct {
		raw    string
		str    string // String(); also the round-trip text
		fields string // Fields() as JSON
		host   string
		eff    int // effective port
	}{
		// RFC 1738 §3.7's form, with and without port and article number.
		{"nntp://news.example:119/comp.infosystems.www.misc/1234", "nntp://news.example/comp.infosystems.www.misc/1234",
			`{"group":"comp.infosystems.www.misc","article":1234}`, "news.example", 119},
		{"nntps://news.example:563/local.test", "nntps://news.example/local.test",
			`{"group":"local.test","article":null}`, "news.example", 563},
		{"nntps://news.example:119/local.test", "nntps://news.example:119/local.test",
			`{"group":"local.test","article":null}`, "news.example", 119},
		{"nntp://news.example/comp.infosystems.www.misc", "nntp://news.example/comp.infosystems.www.misc",
			`{"group":"comp.infosystems.www.misc","article":null}`, "news.example", 119},
		{"<URL:nntp://127.0.0.1:1119/local.test/1>", "nntp://127.0.0.1:1119/local.test/1",
			`{"group":"local.test","article":1}`, "127.0.0.1", 1119},
		{"nntps://news.example/local.test/42", "nntps://news.example/local.test/42",
			`{"group":"local.test","article":42}`, "news.example", 563},
		{"NNTP://News.Example/comp.lang.c++/0007", "nntp://news.example/comp.lang.c++/7",
			`{"group":"comp.lang.c++","article":7}`, "news.example", 119},
		{"nntp://news.example/local%2Etest/%31%32", "nntp://news.example/local.test/12",
			`{"group":"local.test","article":12}`, "news.example", 119},
		{"nntp://news.example/local.test/9223372036854775807", "nntp://news.example/local.test/9223372036854775807",
			`{"group":"local.test","article":9223372036854775807}`, "news.example", 119},
		{"nntp://news.example/local.test/0", "nntp://news.example/local.test/0",
			`{"group":"local.test","article":0}`, "news.example", 119},
		{"nntp://[::1]:1119/local.test#frag", "nntp://[::1]:1119/local.test#frag",
			`{"group":"local.test","article":null}`, "::1", 1119},
		// No group: the server's list of groups (as news://host/*).
		{"nntp://news.example", "nntp://news.example/",
			`{"group":"","article":null}`, "news.example", 119},
		{"nntp://news.example:1119/", "nntp://news.example:1119/",
			`{"group":"","article":null}`, "news.example", 1119},
		// A login is accepted (RFC 5538; for AUTHINFO).
		{"nntp://reader@news.example/local.test", "nntp://reader@news.example/local.test",
			`{"group":"local.test","article":null}`, "news.example", 119},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			x, err := parseNNTP(tt.raw)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if j, err := json.Marshal(x.Fields()); err != nil || string(j) != tt.fields {
				t.Errorf("Fields() = %s, %v; want %s", j, err, tt.fields)
			}
			if g := x.Generic(); g.Host != tt.host || g.EffectivePort() != tt.eff {
				t.Errorf("host %q effective port %d, want %q %d", g.Host, g.EffectivePort(), tt.host, tt.eff)
			}
			if s := x.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
			schemestest.RoundTrip(t, x, parseNNTP)
		})
	}
}

func TestParseNNTPRedacted(t *testing.T) {
	x, err := parseNNTP("nntp://reader:s3cret@news.example/local.test/3")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.Redacted(), "nntp://reader:****@news.example/local.test/3"; got != want {
		t.Errorf("Redacted() = %q, want %q", got, want)
	}
	if got, want := x.String(), "nntp://reader:s3cret@news.example/local.test/3"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParseNNTPErrors(t *testing.T) {
	tests := []struct{ raw, part string }{
		// The 1994 draft's nntpaddress "nntp:group/digits" has no host.
		{"nntp:comp.infosystems.www.misc/1234", "host"},
		{"nntp:///local.test/1", "host"},
		{"nntp://news.example//1", "group"},
		{"nntp://news.example/3com/1", "group"},
		{"nntp://news.example/id@host.example", "group"}, // message-ids are news: URLs
		{"nntp://news.example/*", "group"},
		{"nntp://news.example/local.test/", "article"},
		{"nntp://news.example/local.test/-1", "article"},
		{"nntp://news.example/local.test/+1", "article"},
		{"nntp://news.example/local.test/1x", "article"},
		{"nntp://news.example/local.test/1/2", "article"},
		{"nntp://news.example/local.test/1?x", "article"},
		{"nntp://news.example/local.test/9223372036854775808", "article"},
		{"nntp://user:pw@news.example:65536/local.test", "port"},
		{"nntps://user:pw@news.example/local.test/%zz", "url"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			_, err := parseNNTP(tt.raw)
			schemestest.UsageError(t, err, tt.part)
			if err != nil && strings.Contains(err.Error(), ":pw@") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
	u, _ := schemes.Parse("news:local.test")
	_, err := Parse(u)
	schemestest.UsageError(t, err, "scheme")
}

func TestSchemes(t *testing.T) {
	want := map[string]string{
		"news":  "news:local.test",
		"nntp":  "nntp://h/local.test/1",
		"nntps": "nntps://h/local.test/1",
	}
	var names []string
	for _, s := range Schemes(nil) {
		names = append(names, s.Name)
		if _, ok := s.Handler.(*Handler); !ok {
			t.Errorf("%s: Handler is %T, want a default *Handler", s.Name, s.Handler)
		}
		u, err := schemes.Parse(want[s.Name])
		if err != nil {
			t.Fatal(err)
		}
		if l, err := s.Parse(u); err != nil || l.String() != want[s.Name] {
			t.Errorf("%s: Parse = %v, %v", s.Name, l, err)
		}
		if l, err := s.Parse(&schemes.URL{Scheme: s.Name}); err == nil || l != nil {
			t.Errorf("%s: Parse of an empty URL = %v, %v; want a nil Locator and an error", s.Name, l, err)
		}
	}
	if !reflect.DeepEqual(names, []string{"news", "nntp", "nntps"}) {
		t.Errorf("Schemes() names = %v", names)
	}
}

func FuzzParseNNTP(f *testing.F) {
	for _, s := range []string{
		"nntp://news.example:119/comp.infosystems.www.misc/1234", "nntp://news.example/comp.infosystems.www.misc",
		"nntps://news.example/local.test/42", "NNTP://News.Example/comp.lang.c++/0007",
		"nntp://news.example/local%2Etest/%31%32", "nntp://[::1]:1119/local.test#frag",
		"nntp://reader:s3cret@news.example/local.test/3", "nntp:comp.infosystems.www.misc/1234",
		"nntp://news.example/local.test/1/2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		x, _, ok := schemestest.FuzzRoundTrip(t, raw, parseNNTP)
		if !ok {
			return
		}
		if _, err := json.Marshal(x.Fields()); err != nil {
			t.Fatal(err)
		}
	})
}
