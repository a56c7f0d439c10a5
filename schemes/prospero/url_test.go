package prospero

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parseProspero runs the generic parser and this package's, as the
// registry does.
var parseProspero = schemestest.Parser(Parse)

func TestParse(t *testing.T) {
	tests := []struct {
		raw    string
		str    string // String(); also the round-trip text
		fields string // Fields() as JSON
		host   string
		eff    int // effective port
	}{
		// RFC 1738 §3.11: the example (hsoname "/pros/name"), and the form
		// prospero://<host>:<port>/<hsoname>;<field>=<value>.
		{"<URL:prospero://host.dom//pros/name>", "prospero://host.dom//pros/name",
			`{"hsoname":"/pros/name","fields":{}}`, "host.dom", 1525},
		{"prospero://host.dom:1525/pros/name;OBJECT-VERSION=3", "prospero://host.dom/pros/name;OBJECT-VERSION=3",
			`{"hsoname":"pros/name","fields":{"OBJECT-VERSION":"3"}}`, "host.dom", 1525},
		// prospero-notes §7/§10: links rendered as prospero://host[:port]/<hsoname>.
		{"prospero://127.0.0.1:11525//var/spool/prospero/pfs/ftp/pub", "prospero://127.0.0.1:11525//var/spool/prospero/pfs/ftp/pub",
			`{"hsoname":"/var/spool/prospero/pfs/ftp/pub","fields":{}}`, "127.0.0.1", 11525},
		{"prospero://127.0.0.1:11525//var/spool/prospero/pfs/ftp/pub/README;VERSION=0",
			"prospero://127.0.0.1:11525//var/spool/prospero/pfs/ftp/pub/README;VERSION=0",
			`{"hsoname":"/var/spool/prospero/pfs/ftp/pub/README","fields":{"VERSION":"0"}}`, "127.0.0.1", 11525},
		// "?" is data in the hsoname (psegment allows "?", ":", "@", "&", "="),
		// and in field names and values ("?", ":", "@", "&").
		{"prospero://h/a?b=c&d:e@f", "prospero://h/a?b=c&d:e@f", `{"hsoname":"a?b=c\u0026d:e@f","fields":{}}`, "h", 1525},
		{"prospero://h/x;A?:@&=v?:@&", "prospero://h/x;A?:@&=v?:@&",
			`{"hsoname":"x","fields":{"A?:@\u0026":"v?:@\u0026"}}`, "h", 1525},
		// Escapes: ";" in the hsoname, ";" and "=" in fields; decoded.
		{"prospero://h/a%3Bb;N%3D=v%3B%3D", "prospero://h/a%3Bb;N%3D=v%3B%3D", `{"hsoname":"a;b","fields":{"N=":"v;="}}`, "h", 1525},
		{"prospero://h/%61%2Fb%20c", "prospero://h/a/b%20c", `{"hsoname":"a/b c","fields":{}}`, "h", 1525},
		{"prospero://h/with space.txt", "prospero://h/with%20space.txt", `{"hsoname":"with space.txt","fields":{}}`, "h", 1525},
		// Several fields keep their order; a repeated name gives an array;
		// empty values are allowed.
		{"prospero://h/x;Z=1;A=;Z=2", "prospero://h/x;Z=1;A=;Z=2", `{"hsoname":"x","fields":{"Z":["1","2"],"A":""}}`, "h", 1525},
		// CR LF stay in the value; the handler refuses them.
		{"prospero://h/a%0D%0Ab", "prospero://h/a%0D%0Ab", `{"hsoname":"a\r\nb","fields":{}}`, "h", 1525},
		{"PROSPERO://H.Dom//x#frag", "prospero://h.dom//x#frag", `{"hsoname":"/x","fields":{}}`, "h.dom", 1525},
		{"prospero://[::1]:1525///", "prospero://[::1]///", `{"hsoname":"//","fields":{}}`, "::1", 1525},
		{"prospero://h/x#%7e%41", "prospero://h/x#%7EA", `{"hsoname":"x","fields":{}}`, "h", 1525},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			x, err := parseProspero(tt.raw)
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
			if x.Redacted() != x.String() {
				t.Errorf("Redacted() = %q, want %q", x.Redacted(), x.String())
			}
			schemestest.RoundTrip(t, x, parseProspero)
		})
	}
}

func TestField(t *testing.T) {
	x, err := parseProspero("prospero://h/x;object-version=7;OBJECT-VERSION=8")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := x.Field("OBJECT-VERSION"); !ok || v != "7" {
		t.Errorf(`Field("OBJECT-VERSION") = %q, %v; want "7", true`, v, ok)
	}
	if v, ok := x.Field("VERSION"); ok || v != "" {
		t.Errorf(`Field("VERSION") = %q, %v; want "", false`, v, ok)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ raw, part string }{
		{"prospero:host.dom/x", "host"},
		{"prospero:///x", "host"},
		{"prospero://host.dom", "hsoname"},
		{"prospero://host.dom/", "hsoname"},
		{"prospero://host.dom/;A=b", "hsoname"},
		// The 1994 draft's "hsoname%00version" form.
		{"prospero://host.dom//pros/name%0012", "hsoname"},
		// "No username or password is allowed."
		{"prospero://user@host.dom/x", "user"},
		{"prospero://user:pw@host.dom/x", "user"},
		{"prospero://@host.dom/x", "user"},
		{"prospero://host.dom/x;", "field"},
		{"prospero://host.dom/x;A", "field"},
		{"prospero://host.dom/x;=v", "field"},
		{"prospero://host.dom/x;A=b;", "field"},
		{"prospero://host.dom/x;A=b;;C=d", "field"},
		{"prospero://host.dom/x;A=b=c", "field"},
		{"prospero://host.dom:0/x", "port"},
		{"prospero://host.dom?x/y", "host"},
		{"prospero://host.dom/x%zz", "url"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			_, err := parseProspero(tt.raw)
			if e := schemestest.UsageError(t, err, tt.part); e != nil && strings.Contains(e.Error(), ":pw@") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
	u, _ := schemes.Parse("ftp://h/x")
	var e *schemes.Error
	if _, err := Parse(u); !errors.As(err, &e) || e.Part != "scheme" {
		t.Errorf("Parse(ftp URL) = %v, want a scheme error", err)
	}
}

func TestSchemes(t *testing.T) {
	s := Schemes(nil)
	if len(s) != 1 || s[0].Name != "prospero" || s[0].Handler == nil || !s[0].Caps.Has(schemes.Retrieves|schemes.Lists) {
		t.Fatalf("Schemes() = %+v", s)
	}
	u, _ := schemes.Parse("prospero://h//x")
	if l, err := s[0].Parse(u); err != nil || l.String() != "prospero://h//x" {
		t.Errorf("Parse = %v, %v", l, err)
	}
	if l, err := s[0].Parse(&schemes.URL{Scheme: "prospero"}); err == nil || l != nil {
		t.Errorf("Parse of a URL without host = %v, %v; want a nil Locator and an error", l, err)
	}
}

func FuzzParseProspero(f *testing.F) {
	for _, s := range []string{
		"prospero://host.dom//pros/name", "prospero://host.dom:1525/pros/name;OBJECT-VERSION=3",
		"prospero://127.0.0.1:11525//var/spool/prospero/pfs/ftp/pub/README;VERSION=0", "prospero://h/a?b=c&d:e@f",
		"prospero://h/x;A?:@&=v?:@&", "prospero://h/a%3Bb;N%3D=v%3B%3D", "prospero://h/x;Z=1;A=;Z=2",
		"prospero://h/a%0D%0Ab", "PROSPERO://H.Dom//x#frag", "prospero://[::1]:1525///", "prospero://host.dom//pros/name%0012",
		"prospero://host.dom/x;A=b=c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		x, _, ok := schemestest.FuzzRoundTrip(t, raw, parseProspero)
		if !ok {
			return
		}
		if _, err := json.Marshal(x.Fields()); err != nil {
			t.Fatal(err)
		}
	})
}
