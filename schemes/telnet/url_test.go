package telnet

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parseTelnet runs the generic parser and this package's, as the registry
// does.
var parseTelnet = schemestest.Parser(Parse)

func ptr(s string) *string { return &s }

func TestParse(t *testing.T) {
	tests := []struct {
		raw      string
		str      string // String(); also the round-trip text
		redacted string
		user     *string
		password *string
		host     string
		port     int
		eff      int // effective port
	}{
		// RFC 1738 §3.8's form with every part, and its shorter variants
		// ("The :<password> can be omitted, as well as the whole
		// <user>:<password> part"; "The final "/" character may be omitted").
		{"telnet://user:password@host.example:2323/", "telnet://user:password@host.example:2323/",
			"telnet://user:****@host.example:2323/", ptr("user"), ptr("password"), "host.example", 2323, 2323},
		{"telnet://user@host.example/", "telnet://user@host.example/", "telnet://user@host.example/",
			ptr("user"), nil, "host.example", 0, 23},
		// The canonical form always has the final "/", never the default port.
		{"telnet://host.example", "telnet://host.example/", "telnet://host.example/", nil, nil, "host.example", 0, 23},
		{"<URL:telnet://host.example:23/>", "telnet://host.example/", "telnet://host.example/",
			nil, nil, "host.example", 23, 23},
		{"telnet://u:p@H:23", "telnet://u:p@h/", "telnet://u:****@h/", ptr("u"), ptr("p"), "h", 23, 23},
		// prospero-notes §7: a TELNET access method becomes telnet://host[:port]/.
		{"telnet://127.0.0.1:2323/", "telnet://127.0.0.1:2323/", "telnet://127.0.0.1:2323/", nil, nil, "127.0.0.1", 2323, 2323},
		{"TELNET://Host.Example/", "telnet://host.example/", "telnet://host.example/", nil, nil, "host.example", 0, 23},
		{"telnet://[::1]:2323/", "telnet://[::1]:2323/", "telnet://[::1]:2323/", nil, nil, "::1", 2323, 2323},
		// Escaped user and password are decoded, and re-escaped by String.
		{"telnet://al%40ice:s%3Ae%2Fc@h/", "telnet://al%40ice:s%3Ae%2Fc@h/", "telnet://al%40ice:****@h/",
			ptr("al@ice"), ptr("s:e/c"), "h", 0, 23},
		{"telnet://:secret@h/", "telnet://:secret@h/", "telnet://:****@h/", ptr(""), ptr("secret"), "h", 0, 23},
		{"telnet://h/#frag", "telnet://h/#frag", "telnet://h/#frag", nil, nil, "h", 0, 23},
		{"telnet://h#", "telnet://h/", "telnet://h/", nil, nil, "h", 0, 23},
		// The 1994 draft's rlogin and tn3270 share the shape.
		{"rlogin://user@host.example", "rlogin://user@host.example/", "rlogin://user@host.example/", ptr("user"), nil, "host.example", 0, 513},
		{"rlogin://host.example:513", "rlogin://host.example/", "rlogin://host.example/", nil, nil, "host.example", 513, 513},
		{"tn3270://host.example:2300", "tn3270://host.example:2300/", "tn3270://host.example:2300/", nil, nil, "host.example", 2300, 2300},
		{"tn3270://host.example/", "tn3270://host.example/", "tn3270://host.example/", nil, nil, "host.example", 0, 23},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			x, err := parseTelnet(tt.raw)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			g := x.Generic()
			if !reflect.DeepEqual(g.User, tt.user) || !reflect.DeepEqual(g.Password, tt.password) ||
				g.Host != tt.host || g.Port != tt.port || g.EffectivePort() != tt.eff {
				t.Errorf("generic = user %v password %v host %q port %d (eff %d)", g.User, g.Password, g.Host, g.Port, g.EffectivePort())
			}
			if s := x.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
			if r := x.Redacted(); r != tt.redacted {
				t.Errorf("Redacted() = %q, want %q", r, tt.redacted)
			}
			j, err := json.Marshal(x.Fields())
			if err != nil || string(j) != "{}" {
				t.Errorf("Fields() JSON = %s, %v; want {}", j, err)
			}
			schemestest.RoundTrip(t, x, parseTelnet)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		raw, part string
		kind      schemes.Kind
	}{
		{"telnet:host.example", "host", schemes.KindUsage},              // no "//"
		{"telnet://", "host", schemes.KindUsage},                        // empty host
		{"telnet:///", "host", schemes.KindUsage},                       // empty host
		{"telnet://user:pw@/", "host", schemes.KindUsage},               // empty host
		{"telnet://host.example/login", "path", schemes.KindUsage},      // nothing after the final "/"
		{"telnet://host.example//", "path", schemes.KindUsage},          // nor a second "/"
		{"telnet://host.example/?x", "path", schemes.KindUsage},         // nor a query
		{"rlogin://host.example/x", "path", schemes.KindUsage},          // same shape for rlogin
		{"tn3270://host.example:0/", "port", schemes.KindUsage},         // generic parser
		{"telnet://host.example:99999/", "port", schemes.KindUsage},     // generic parser
		{"telnet://ho st/", "host", schemes.KindUsage},                  // generic parser
		{"telnet://user:pw@host.example/%zz", "url", schemes.KindUsage}, // malformed escape
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			_, err := parseTelnet(tt.raw)
			var e *schemes.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *schemes.Error", err)
			}
			if e.Kind != tt.kind || e.Part != tt.part {
				t.Errorf("err = %v (kind %v part %q), want kind %v part %q", err, e.Kind, e.Part, tt.kind, tt.part)
			}
			if strings.Contains(e.Error(), ":pw@") {
				t.Errorf("error %q shows the password", e.Error())
			}
		})
	}
}

func TestParseWrongScheme(t *testing.T) {
	u, err := schemes.Parse("http://host.example/")
	if err != nil {
		t.Fatal(err)
	}
	var e *schemes.Error
	if _, err := Parse(u); !errors.As(err, &e) || e.Part != "scheme" || e.Kind != schemes.KindUsage {
		t.Errorf("Parse(http URL) = %v, want a scheme error", err)
	}
}

func TestSchemes(t *testing.T) {
	var names []string
	for _, s := range Schemes(nil) {
		names = append(names, s.Name)
		if s.Handler == nil || s.Caps != schemes.Interactive || s.Caps.Redirectable() {
			t.Errorf("%s: Handler %v, Caps %v; want a handler, interactive", s.Name, s.Handler, s.Caps)
		}
		schemes.NewRegistry().Register(s) // the claims hold: no panic
		u, err := schemes.Parse(s.Name + "://host.example/")
		if err != nil {
			t.Fatal(err)
		}
		if l, err := s.Parse(u); err != nil || l.String() != s.Name+"://host.example/" {
			t.Errorf("%s: Parse = %v, %v", s.Name, l, err)
		}
		if l, err := s.Parse(&schemes.URL{Scheme: s.Name}); err == nil || l != nil {
			t.Errorf("%s: Parse of a URL without host = %v, %v; want a nil Locator and an error", s.Name, l, err)
		}
	}
	if want := []string{"telnet", "rlogin", "tn3270"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Schemes() names = %v, want %v", names, want)
	}
}

func FuzzParseTelnet(f *testing.F) {
	for _, s := range []string{
		"telnet://user:password@host.example:2323/", "telnet://host.example", "rlogin://user@host.example",
		"tn3270://host.example:2300", "telnet://al%40ice:s%3Ae%2Fc@h/", "telnet://[::1]:2323/", "telnet://h/#frag",
		"telnet://host.example/login", "telnet://:secret@h/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		schemestest.FuzzRoundTrip(t, raw, parseTelnet)
	})
}
