package mailto

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parseMailto runs the generic parser and this package's, as the registry
// does.
var parseMailto = schemestest.Parser(Parse)

// sameAddresses adds to schemestest.Same what Fields() cannot tell: a nil
// Addresses from an empty one (Fields' "to" list is never nil).
func sameAddresses(a, b *URL) bool { return reflect.DeepEqual(a.Addresses, b.Addresses) }

func TestParse(t *testing.T) {
	tests := []struct {
		raw    string
		str    string // String(); also the round-trip text
		fields string // Fields() as JSON
	}{
		// RFC 1738 §3.5: mailto:<rfc822-addr-spec>; a "%" in the address
		// (a gatewayed address, as the 1994 draft says) is written %25.
		{"mailto:joe@example.com", "mailto:joe@example.com",
			`{"address":"joe@example.com","to":["joe@example.com"],"headers":{}}`},
		{"<URL:mailto:user%25gateway@relay.example>", "mailto:user%25gateway@relay.example",
			`{"address":"user%gateway@relay.example","to":["user%gateway@relay.example"],"headers":{}}`},
		// RFC 1738: no reserved characters in the addr-spec, so ";", "/",
		// ":", "@", "&", "=" are data; "?" needs %3F since RFC 6068.
		{"mailto:a;b/c:d&e=f@example.com", "mailto:a;b/c:d&e=f@example.com",
			`{"address":"a;b/c:d\u0026e=f@example.com","to":["a;b/c:d\u0026e=f@example.com"],"headers":{}}`},
		// The 1994 draft's BNF `m a i l t o : : xalphas @ hostname`: the
		// second ":" is read literally, as part of the local part.
		{"mailto::joe@example.com", "mailto::joe@example.com",
			`{"address":":joe@example.com","to":[":joe@example.com"],"headers":{}}`},
		// RFC 6068 §6's examples.
		{"mailto:chris@example.com", "mailto:chris@example.com",
			`{"address":"chris@example.com","to":["chris@example.com"],"headers":{}}`},
		{"mailto:infobot@example.com?subject=current-issue", "mailto:infobot@example.com?subject=current-issue",
			`{"address":"infobot@example.com","to":["infobot@example.com"],"headers":{"subject":"current-issue"}}`},
		{"mailto:infobot@example.com?body=send%20current-issue", "mailto:infobot@example.com?body=send%20current-issue",
			`{"address":"infobot@example.com","to":["infobot@example.com"],"headers":{"body":"send current-issue"}}`},
		{"mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
			"mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
			`{"address":"infobot@example.com","to":["infobot@example.com"],"headers":{"body":"send current-issue\r\nsend index"}}`},
		{"mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
			"mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
			`{"address":"list@example.org","to":["list@example.org"],"headers":{"In-Reply-To":"\u003c3469A91.D10AF4C@example.com\u003e"}}`},
		{"mailto:majordomo@example.com?body=subscribe%20bamboo-l", "mailto:majordomo@example.com?body=subscribe%20bamboo-l",
			`{"address":"majordomo@example.com","to":["majordomo@example.com"],"headers":{"body":"subscribe bamboo-l"}}`},
		{"mailto:joe@example.com?cc=bob@example.com&body=hello", "mailto:joe@example.com?cc=bob@example.com&body=hello",
			`{"address":"joe@example.com","to":["joe@example.com"],"headers":{"cc":"bob@example.com","body":"hello"}}`},
		{"mailto:gorby%25kremvax@example.com", "mailto:gorby%25kremvax@example.com",
			`{"address":"gorby%kremvax@example.com","to":["gorby%kremvax@example.com"],"headers":{}}`},
		{"mailto:unlikely%3Faddress@example.com?blat=foop", "mailto:unlikely%3Faddress@example.com?blat=foop",
			`{"address":"unlikely?address@example.com","to":["unlikely?address@example.com"],"headers":{"blat":"foop"}}`},
		{"mailto:Mike%26family@example.org", "mailto:Mike&family@example.org",
			`{"address":"Mike\u0026family@example.org","to":["Mike\u0026family@example.org"],"headers":{}}`},
		{"mailto:%22not%40me%22@example.org", "mailto:%22not@me%22@example.org",
			`{"address":"\"not@me\"@example.org","to":["\"not@me\"@example.org"],"headers":{}}`},
		{"mailto:%22oh%5C%5Cno%22@example.org", "mailto:%22oh%5C%5Cno%22@example.org",
			`{"address":"\"oh\\\\no\"@example.org","to":["\"oh\\\\no\"@example.org"],"headers":{}}`},
		{"mailto:?to=joe@example.com&cc=bob@example.com&body=hello", "mailto:?to=joe@example.com&cc=bob@example.com&body=hello",
			`{"address":"","to":["joe@example.com"],"headers":{"to":"joe@example.com","cc":"bob@example.com","body":"hello"}}`},
		{"mailto:?to=addr1@an.example,addr2@an.example", "mailto:?to=addr1@an.example,addr2@an.example",
			`{"address":"","to":["addr1@an.example","addr2@an.example"],"headers":{"to":"addr1@an.example,addr2@an.example"}}`},
		{"mailto:addr1@an.example,addr2@an.example", "mailto:addr1@an.example,addr2@an.example",
			`{"address":"addr1@an.example,addr2@an.example","to":["addr1@an.example","addr2@an.example"],"headers":{}}`},
		{"mailto:addr1@an.example?to=addr2@an.example", "mailto:addr1@an.example?to=addr2@an.example",
			`{"address":"addr1@an.example","to":["addr1@an.example","addr2@an.example"],"headers":{"to":"addr2@an.example"}}`},
		// A "," inside a quoted local part is written %2C.
		{"mailto:%22a%2Cb%22@example.com", "mailto:%22a%2Cb%22@example.com",
			`{"address":"\"a,b\"@example.com","to":["\"a,b\"@example.com"],"headers":{}}`},
		// Blanks around the addresses of a to field are trimmed in To().
		{"mailto:?to=a@x,%20b@y", "mailto:?to=a@x,%20b@y", `{"address":"","to":["a@x","b@y"],"headers":{"to":"a@x, b@y"}}`},
		// cc/bcc alone are recipients enough.
		{"mailto:?bcc=a@x", "mailto:?bcc=a@x", `{"address":"","to":[],"headers":{"bcc":"a@x"}}`},
		// Header escapes; "+" is a plus, not a space; a literal "=" in a
		// value is data; "&", "=", "?" in values are written escaped.
		{"mailto:a@x?subject=1+1=2%3F&body=a%26b", "mailto:a@x?subject=1%2B1%3D2%3F&body=a%26b",
			`{"address":"a@x","to":["a@x"],"headers":{"subject":"1+1=2?","body":"a\u0026b"}}`},
		// Repeated fields keep their order and become an array in JSON;
		// empty fields are skipped; an empty value is kept.
		{"mailto:a@x?cc=b@y&&subject=&cc=c@z&", "mailto:a@x?cc=b@y&subject=&cc=c@z",
			`{"address":"a@x","to":["a@x"],"headers":{"cc":["b@y","c@z"],"subject":""}}`},
		{"mailto:a@x?", "mailto:a@x", `{"address":"a@x","to":["a@x"],"headers":{}}`},
		// Decoded CR LF stay in values; the handler refuses them.
		{"mailto:a@x?subject=hi%0D%0ABcc:%20evil@y", "mailto:a@x?subject=hi%0D%0ABcc:%20evil@y",
			`{"address":"a@x","to":["a@x"],"headers":{"subject":"hi\r\nBcc: evil@y"}}`},
		{"mailto:a%0D%0A@x", "mailto:a%0D%0A@x", `{"address":"a\r\n@x","to":["a\r\n@x"],"headers":{}}`},
		// A leading "//" is written "%2F/": "mailto://" would be an authority.
		{"mailto:%2F%2Fa@x", "mailto:%2F/a@x", `{"address":"//a@x","to":["//a@x"],"headers":{}}`},
		{"mailto:/%2Fa@x", "mailto:%2F/a@x", `{"address":"//a@x","to":["//a@x"],"headers":{}}`},
		// Addresses are checked once decoded: "%40" is the "@".
		{"mailto:a%40x", "mailto:a@x", `{"address":"a@x","to":["a@x"],"headers":{}}`},
		{"MAILTO:Joe@Example.COM#frag", "mailto:Joe@Example.COM#frag",
			`{"address":"Joe@Example.COM","to":["Joe@Example.COM"],"headers":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			x, err := parseMailto(tt.raw)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if j, err := json.Marshal(x.Fields()); err != nil || string(j) != tt.fields {
				t.Errorf("Fields() = %s, %v\n                     want %s", j, err, tt.fields)
			}
			if s := x.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
			if x.Redacted() != x.String() {
				t.Errorf("Redacted() = %q, want %q", x.Redacted(), x.String())
			}
			if y, ok := schemestest.RoundTrip(t, x, parseMailto); ok && !sameAddresses(x, y) {
				t.Errorf("round trip: addresses %#v → %#v", x.Addresses, y.Addresses)
			}
		})
	}
}

func TestHeader(t *testing.T) {
	x, err := parseMailto("mailto:a@x?Subject=one&subject=two")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := x.Header("SUBJECT"); !ok || v != "one" {
		t.Errorf(`Header("SUBJECT") = %q, %v; want "one", true`, v, ok)
	}
	if v, ok := x.Header("body"); ok || v != "" {
		t.Errorf(`Header("body") = %q, %v; want "", false`, v, ok)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ raw, part string }{
		{"mailto:", "address"},
		{"mailto:joe", "address"},
		{"mailto:@example.com", "address"},
		{"mailto:joe@", "address"},
		{"mailto:a@x,", "address"},
		{"mailto:a@x,,b@y", "address"},
		{"mailto:,a@x", "address"},
		{"mailto:?subject=hi", "address"},
		{"mailto:?to=", "address"},
		{"mailto:a@x?to=b", "address"},
		{"mailto:a@x?cc=b@y,", "address"},
		{"mailto:a@x?BCC=@y", "address"},
		{"mailto://joe@example.com", "address"}, // no authority in mailto
		{"mailto://example.com", "address"},
		{"mailto:a@x?subject", "header"},
		{"mailto:a@x?=v", "header"},
		{"mailto:a@x?subject=a&body", "header"},
		{"mailto:a@x?subject=%zz", "url"}, // generic parser: malformed escape
		{"mailto:gorby%kremvax@example.com", "url"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			_, err := parseMailto(tt.raw)
			schemestest.UsageError(t, err, tt.part)
		})
	}
	u, _ := schemes.Parse("news:a@b")
	var e *schemes.Error
	if _, err := Parse(u); !errors.As(err, &e) || e.Part != "scheme" {
		t.Errorf("Parse(news URL) = %v, want a scheme error", err)
	}
}

func TestSchemes(t *testing.T) {
	s := Schemes(nil)
	if len(s) != 1 || s[0].Name != "mailto" || s[0].Handler == nil || s[0].Caps != schemes.Sends|schemes.TLS || s[0].Caps.Redirectable() {
		t.Fatalf("Schemes() = %+v", s)
	}
	schemes.NewRegistry().Register(s[0]) // the claims hold: no panic
	u, _ := schemes.Parse("mailto:a@x")
	if l, err := s[0].Parse(u); err != nil || l.String() != "mailto:a@x" {
		t.Errorf("Parse = %v, %v", l, err)
	}
	if l, err := s[0].Parse(&schemes.URL{Scheme: "mailto"}); err == nil || l != nil {
		t.Errorf("Parse of an empty URL = %v, %v; want a nil Locator and an error", l, err)
	}
}

func FuzzParseMailto(f *testing.F) {
	for _, s := range []string{
		"mailto:joe@example.com", "mailto:user%25gateway@relay.example", "mailto:a;b/c:d&e=f@example.com",
		"mailto::joe@example.com", "mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
		"mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
		"mailto:joe@example.com?cc=bob@example.com&body=hello", "mailto:unlikely%3Faddress@example.com?blat=foop",
		"mailto:%22not%40me%22@example.org", "mailto:?to=joe@example.com&cc=bob@example.com&body=hello",
		"mailto:addr1@an.example,addr2@an.example", "mailto:%22a%2Cb%22@example.com", "mailto:?to=a@x,%20b@y",
		"mailto:a@x?subject=1+1=2%3F&body=a%26b", "mailto:a@x?cc=b@y&&subject=&cc=c@z&", "MAILTO:Joe@Example.COM#frag",
		"mailto://joe@example.com", "mailto:%2F%2Fa@x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		x, y, ok := schemestest.FuzzRoundTrip(t, raw, parseMailto)
		if !ok {
			return
		}
		if !sameAddresses(x, y) {
			t.Fatalf("round trip of %q via %q: addresses %#v → %#v", raw, x.String(), x.Addresses, y.Addresses)
		}
		if _, err := json.Marshal(x.Fields()); err != nil {
			t.Fatal(err)
		}
	})
}
