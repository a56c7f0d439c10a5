package nntp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parseNews runs the generic parser and ParseNews, as the registry does.
var parseNews = schemestest.Parser(ParseNews)

func TestParseNews(t *testing.T) {
	tests := []struct {
		raw    string
		str    string // String(); also the round-trip text
		fields string // Fields() as JSON
		host   string
		port   int
	}{
		// RFC 1738 §3.6: the newsgroup example, a message-id, and news:*
		// (written there as <URL:news:*>).
		{"news:comp.infosystems.www.misc", "news:comp.infosystems.www.misc",
			`{"group":"comp.infosystems.www.misc","message_id":null,"all":false}`, "", 0},
		{"news:unique@full_domain_name", "news:unique@full_domain_name",
			`{"group":null,"message_id":"unique@full_domain_name","all":false}`, "", 0},
		{"<URL:news:*>", "news:*", `{"group":null,"message_id":null,"all":true}`, "", 0},
		{"news:*", "news:*", `{"group":null,"message_id":null,"all":true}`, "", 0},
		// The draft's illegal example, with its "%as" written as an escape.
		{"news:12345667123%25asdghfh@info.cern.ch", "news:12345667123%25asdghfh@info.cern.ch",
			`{"group":null,"message_id":"12345667123%asdghfh@info.cern.ch","all":false}`, "", 0},
		// article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
		{"news:a;b/c?d:e&f=g@host.example", "news:a;b/c?d:e&f=g@host.example",
			`{"group":null,"message_id":"a;b/c?d:e\u0026f=g@host.example","all":false}`, "", 0},
		{"news:part1.part2$@[127.0.0.1]", "news:part1.part2$@%5B127.0.0.1%5D",
			`{"group":null,"message_id":"part1.part2$@[127.0.0.1]","all":false}`, "", 0},
		// group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
		{"news:alt.2600", "news:alt.2600", `{"group":"alt.2600","message_id":null,"all":false}`, "", 0},
		{"news:comp.lang.c++", "news:comp.lang.c++", `{"group":"comp.lang.c++","message_id":null,"all":false}`, "", 0},
		{"news:a-b_c.D+e", "news:a-b_c.D+e", `{"group":"a-b_c.D+e","message_id":null,"all":false}`, "", 0},
		{"NEWS:local.test", "news:local.test", `{"group":"local.test","message_id":null,"all":false}`, "", 0},
		// Decoded before it is classified.
		{"news:%2A", "news:*", `{"group":null,"message_id":null,"all":true}`, "", 0},
		{"news:local%2Etest", "news:local.test", `{"group":"local.test","message_id":null,"all":false}`, "", 0},
		{"news:id%40host.example", "news:id@host.example", `{"group":null,"message_id":"id@host.example","all":false}`, "", 0},
		// Enclosing "<" ">" of a header's Message-ID are dropped.
		{"news:<id@host.example>", "news:id@host.example", `{"group":null,"message_id":"id@host.example","all":false}`, "", 0},
		{"news:%3C%3Cid@host.example%3E%3E", "news:%3C%3Cid@host.example%3E%3E",
			`{"group":null,"message_id":"\u003cid@host.example\u003e","all":false}`, "", 0},
		// Decoded CR LF stay in the value; the handler refuses them.
		{"news:a%0D%0Ab@c", "news:a%0D%0Ab@c", `{"group":null,"message_id":"a\r\nb@c","all":false}`, "", 0},
		{"news:%2F%2Fx@y", "news:%2F/x@y", `{"group":null,"message_id":"//x@y","all":false}`, "", 0},
		{"news:local.test#frag", "news:local.test#frag", `{"group":"local.test","message_id":null,"all":false}`, "", 0},
		// RFC 5538's news://host/..., beyond RFC 1738.
		{"news://news.example/comp.infosystems.www.misc", "news://news.example/comp.infosystems.www.misc",
			`{"group":"comp.infosystems.www.misc","message_id":null,"all":false}`, "news.example", 0},
		{"news://127.0.0.1:1119/id@host.example", "news://127.0.0.1:1119/id@host.example",
			`{"group":null,"message_id":"id@host.example","all":false}`, "127.0.0.1", 1119},
		{"news://news.example/*", "news://news.example/*", `{"group":null,"message_id":null,"all":true}`, "news.example", 0},
		{"news://News.Example:119/%3Cid@host%3E#", "news://news.example/id@host",
			`{"group":null,"message_id":"id@host","all":false}`, "news.example", 119},
		{"news://news.example//x@y", "news://news.example//x@y", `{"group":null,"message_id":"/x@y","all":false}`, "news.example", 0},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			x, err := parseNews(tt.raw)
			if err != nil {
				t.Fatalf("ParseNews: %v", err)
			}
			if n := btoi(x.Group != nil) + btoi(x.MessageID != nil) + btoi(x.All); n != 1 {
				t.Errorf("%d of Group, MessageID, All set, want 1", n)
			}
			if j, err := json.Marshal(x.Fields()); err != nil || string(j) != tt.fields {
				t.Errorf("Fields() = %s, %v; want %s", j, err, tt.fields)
			}
			if g := x.Generic(); g.Host != tt.host || g.Port != tt.port || g.EffectivePort() != pick(tt.port, 119) {
				t.Errorf("host %q port %d (effective %d), want %q %d", g.Host, g.Port, g.EffectivePort(), tt.host, tt.port)
			}
			if s := x.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
			if x.Redacted() != x.String() {
				t.Errorf("Redacted() = %q, want %q", x.Redacted(), x.String())
			}
			schemestest.RoundTrip(t, x, parseNews)
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pick(port, def int) int {
	if port != 0 {
		return port
	}
	return def
}

func TestParseNewsRedacted(t *testing.T) {
	x, err := parseNews("news://reader:s3cret@news.example/local.test")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.Redacted(), "news://reader:****@news.example/local.test"; got != want {
		t.Errorf("Redacted() = %q, want %q", got, want)
	}
	if got, want := x.String(), "news://reader:s3cret@news.example/local.test"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParseNewsErrors(t *testing.T) {
	tests := []struct{ raw, part string }{
		// The 1994 draft's example of an illegal URL: "%as" is no escape.
		{"news:12345667123%asdghfh@info.cern.ch", "url"},
		{"news:", "group"},
		{"news:3com.misc", "group"}, // group starts with a letter
		{"news:comp.*", "group"},    // no wildmats
		{"news:comp misc", "group"}, // space (escaped by the generic parser)
		{"news:comp/misc", "group"}, // "/" not in a group
		{"news:/comp.misc", "group"},
		{"news:**", "group"},
		{"news:%00", "group"},
		{"news:@host.example", "message_id"}, // empty unique part
		{"news:id@", "message_id"},           // empty domain
		{"news:<@>", "message_id"},
		{"news:<>", "group"},
		{"news:///local.test", "host"}, // news:// needs a host
		{"news://news.example", "group"},
		{"news://news.example/", "group"},
		{"news://news.example:0/local.test", "port"},
		{"news://user:pw@news.example/3com", "group"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			_, err := parseNews(tt.raw)
			schemestest.UsageError(t, err, tt.part)
			if err != nil && strings.Contains(err.Error(), ":pw@") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
	u, _ := schemes.Parse("nntp://h/g")
	_, err := ParseNews(u)
	schemestest.UsageError(t, err, "scheme")
}

func FuzzParseNews(f *testing.F) {
	for _, s := range []string{
		"news:comp.infosystems.www.misc", "news:unique@full_domain_name", "news:*", "news:%2A",
		"news:12345667123%25asdghfh@info.cern.ch", "news:a;b/c?d:e&f=g@host.example", "news:<id@host.example>",
		"news:%3C%3Cid@host.example%3E%3E", "news:a%0D%0Ab@c", "news:%2F%2Fx@y", "news://news.example/*",
		"news://reader:s3cret@news.example/local.test#f", "news://news.example//x@y", "news:3com.misc",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		// FuzzRoundTrip checks Redacted() against schemes.RedactString only
		// for news:// URLs: RedactString would "redact" the opaque
		// message-id of news:0//:@0, which has no password.
		x, _, ok := schemestest.FuzzRoundTrip(t, raw, parseNews)
		if !ok {
			return
		}
		if _, err := json.Marshal(x.Fields()); err != nil {
			t.Fatal(err)
		}
	})
}
