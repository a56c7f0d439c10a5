package ldap

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// test is a row of tests.
type test struct {
	raw     string
	dn      string
	attrs   []string
	scope   string
	filter  string
	exts    []Extension
	str     string
	errPart string
}

// tests is the parser's golden table: what each URL reads as and its
// canonical form (str; "" means the input itself), which the round trip
// parses again. errPart non-empty: Parse fails with KindUsage naming that
// part. The first rows are RFC 4516 §4's examples; those that name no
// host (a client's default server) are refused, since urlget has none.
var tests = []test{
	// RFC 4516 §4.
	{raw: "ldap:///o=University%20of%20Michigan,c=US", errPart: "host"},
	{raw: "ldap://ldap1.example.net/o=University%20of%20Michigan,c=US", dn: "o=University of Michigan,c=US"},
	{raw: "ldap://ldap1.example.net/o=University%20of%20Michigan,c=US?postalAddress", dn: "o=University of Michigan,c=US", attrs: []string{"postalAddress"}},
	{raw: "ldap://ldap1.example.net:6666/o=University%20of%20Michigan,c=US??sub?(cn=Babs%20Jensen)",
		dn: "o=University of Michigan,c=US", scope: ScopeSub, filter: "(cn=Babs Jensen)"},
	{raw: "LDAP://ldap1.example.com/c=GB?objectClass?ONE", dn: "c=GB", attrs: []string{"objectClass"}, scope: ScopeOne,
		str: "ldap://ldap1.example.com/c=GB?objectClass?one"},
	{raw: "ldap://ldap2.example.com/o=Question%3f,c=US?mail", dn: "o=Question?,c=US", attrs: []string{"mail"},
		str: "ldap://ldap2.example.com/o=Question%3F,c=US?mail"},
	{raw: "ldap://ldap3.example.com/o=Babsco,c=US???(four-octet=%5c00%5c00%5c00%5c04)", dn: "o=Babsco,c=US",
		filter: `(four-octet=\00\00\00\04)`, str: "ldap://ldap3.example.com/o=Babsco,c=US???(four-octet=%5C00%5C00%5C00%5C04)"},
	{raw: "ldap://ldap.example.com/o=An%20Example%5C2C%20Inc.,c=US", dn: `o=An Example\2C Inc.,c=US`},
	{raw: "ldap://ldap.example.net", str: "ldap://ldap.example.net/"},
	{raw: "ldap://ldap.example.net/"},
	{raw: "ldap://ldap.example.net/?", str: "ldap://ldap.example.net/"},
	{raw: "ldap:///??sub??e-bindname=cn=Manager%2cdc=example%2cdc=com", errPart: "host"},
	{raw: "ldap://h/??sub??e-bindname=cn=Manager%2cdc=example%2cdc=com", scope: ScopeSub,
		exts: []Extension{{Type: "e-bindname", Value: "cn=Manager,dc=example,dc=com", HasValue: true}},
		str:  "ldap://h/??sub??e-bindname=cn=Manager%2Cdc=example%2Cdc=com"},
	{raw: "ldap://h/??sub??!e-bindname=cn=Manager%2cdc=example%2cdc=com", scope: ScopeSub,
		exts: []Extension{{Critical: true, Type: "e-bindname", Value: "cn=Manager,dc=example,dc=com", HasValue: true}},
		str:  "ldap://h/??sub??!e-bindname=cn=Manager%2Cdc=example%2Cdc=com"},
	// Defaults written out are left out of the canonical form.
	{raw: "ldap://h:389/dc=x?*?base?(objectClass=*)", dn: "dc=x", attrs: []string{"*"}, str: "ldap://h/dc=x?*"},
	{raw: "ldaps://h:636/dc=x", dn: "dc=x", str: "ldaps://h/dc=x"},
	{raw: "ldaps://h:389/dc=x", dn: "dc=x"},
	{raw: "ldap://h/dc=x?cn,sn,+,1.1,cn;lang-en", dn: "dc=x", attrs: []string{"cn", "sn", "+", "1.1", "cn;lang-en"}},
	{raw: "ldap://h/cn=%C3%89mile%20Zola,dc=x", dn: "cn=Émile Zola,dc=x"},
	{raw: "ldap://h/dc=x??one?(cn=a%3Fb)", dn: "dc=x", scope: ScopeOne, filter: "(cn=a?b)"},
	{raw: "ldap://h/dc=x????bindname=cn=a%2Cdc=x,x-other=1", dn: "dc=x",
		exts: []Extension{{Type: "bindname", Value: "cn=a,dc=x", HasValue: true}, {Type: "x-other", Value: "1", HasValue: true}}},
	{raw: "ldap://h/dc=x????1.2.3", dn: "dc=x", exts: []Extension{{Type: "1.2.3"}}},
	{raw: "ldap://h/dc=x#frag", dn: "dc=x"},
	// Malformed parts.
	{raw: "ldap://h/dc=x?cn?sub?(cn=a)?ext?more", errPart: "extensions"},
	{raw: "ldap://h/dc=x??subtree", errPart: "scope"},
	{raw: "ldap://h/dc=x???cn=a)", errPart: "filter"},
	{raw: "ldap://h/dc=x???(cn=a", errPart: "filter"},
	{raw: "ldap://h/dc=x?c%20n", errPart: "attributes"},
	{raw: "ldap://h/dc=x?cn,,sn", errPart: "attributes"},
	{raw: "ldap://h/dc=x?cn%0D%0A", errPart: "attributes"},
	{raw: "ldap://h/not-a-dn", errPart: "dn"},
	{raw: "ldap://h/dc=x????!x-unknown=1", errPart: "extensions"},
	{raw: "ldap://h/dc=x????!1.2.3", errPart: "extensions"},
	{raw: "ldap://h/dc=x????bindname=notadn", errPart: "extensions"},
	{raw: "ldap://h/dc=x????bindname", errPart: "extensions"},
	{raw: "ldap://h/dc=x????=v", errPart: "extensions"},
	{raw: "ldap://cn=a@h/dc=x", errPart: "user"},
}

var parseLDAP = schemestest.Parser(Parse)

func TestParse(t *testing.T) {
	schemestest.GoldenTable(t, Parse, tests, func(tt test) schemestest.Golden {
		return schemestest.Golden{Raw: tt.raw, Str: tt.str, ErrPart: tt.errPart}
	}, func(t *testing.T, tt test, l, _ *URL) {
		scope, filter := tt.scope, tt.filter
		if scope == "" {
			scope = ScopeBase
		}
		if filter == "" {
			filter = DefaultFilter
		}
		if l.DN != tt.dn || !reflect.DeepEqual(l.Attributes, tt.attrs) || l.Scope != scope || l.Filter != filter || !reflect.DeepEqual(l.Extensions, tt.exts) {
			t.Errorf("got %+v, want dn %q attrs %q scope %s filter %q exts %+v", l.Fields(), tt.dn, tt.attrs, scope, filter, tt.exts)
		}
	})
}

// TestCriticalNamed: an unknown critical extension is refused naming it
// (RFC 4516 §2.1), with KindUsage (exit 2).
func TestCriticalNamed(t *testing.T) {
	_, err := parseLDAP("ldap://h/dc=x????!x-mystery=1")
	e := schemestest.UsageError(t, err, "extensions")
	if e != nil && !strings.Contains(e.Msg, "x-mystery") {
		t.Errorf("message %q does not name the extension", e.Msg)
	}
}

func TestParseOtherScheme(t *testing.T) {
	u, err := schemes.Parse("gopher://h/0x")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(u)
	schemestest.UsageError(t, err, "scheme")
}

func TestDefaultPorts(t *testing.T) {
	for raw, want := range map[string]int{"ldap://h/": 389, "ldaps://h/": 636, "ldap://h:3389/": 3389} {
		l, err := parseLDAP(raw)
		if err != nil {
			t.Fatal(err)
		}
		if p := l.Generic().EffectivePort(); p != want {
			t.Errorf("%s: EffectivePort = %d, want %d", raw, p, want)
		}
	}
}

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"ldap://h/cn=Babs%20Jensen,dc=x": "cn=Babs Jensen",
		"ldap://h/":                      "",
		"ldap://h/dc=x??sub":             "dc=x",
		"ldap://h/cn=a%2Fb,dc=x":         "", // not "b"
		"ldap://h/cn=a%5C5Cb,dc=x":       "", // cn=a\\b
		"ldap://h/cn=a%0Ab,dc=x":         "",
		"ldap://h/cn=..,dc=x":            "cn=..",
	})
}

// TestEntryURL: a listed entry's URL is a base search of its DN on the
// same server, with the listed URL's bind, its DN escaped.
func TestEntryURL(t *testing.T) {
	l, err := parseLDAP("ldap://h:3389/dc=x?cn?sub?(cn=a)?bindname=cn=m%2Cdc=x#f")
	if err != nil {
		t.Fatal(err)
	}
	e := l.Entry("cn=What?,dc=x")
	if s, want := e.String(), "ldap://h:3389/cn=What%3F,dc=x????bindname=cn=m%2Cdc=x"; s != want {
		t.Errorf("entry URL %q, want %q", s, want)
	}
	schemestest.RoundTrip(t, e, parseLDAP)
}

// FuzzParseLDAP: whatever parses round-trips.
func FuzzParseLDAP(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		schemestest.FuzzRoundTrip(t, raw, parseLDAP)
	})
}

// TestWithSearch: a form's words become a subtree search keeping the
// bind; words that are no filter are escaped as filter values.
func TestWithSearch(t *testing.T) {
	l, err := parseLDAP("ldap://h/dc=x??one??bindname=cn=m%2Cdc=x")
	if err != nil {
		t.Fatal(err)
	}
	for words, filter := range map[string]string{
		"":                "(objectClass=*)",
		"(uid=p1)":        "(uid=p1)",
		"Zoë (*)":         `(|(cn=*Zo\c3\ab \28\2a\29*)(sn=*Zo\c3\ab \28\2a\29*)(mail=*Zo\c3\ab \28\2a\29*)(uid=Zo\c3\ab \28\2a\29))`,
		"(uid=p1)(uid=2)": `(|(cn=*\28uid=p1\29\28uid=2\29*)(sn=*\28uid=p1\29\28uid=2\29*)(mail=*\28uid=p1\29\28uid=2\29*)(uid=\28uid=p1\29\28uid=2\29))`,
	} {
		loc, err := l.WithSearch(words)
		if err != nil {
			t.Fatalf("%q: %v", words, err)
		}
		s := loc.(*URL)
		if s.Filter != filter || s.Scope != ScopeSub || s.DN != "dc=x" || len(s.Extensions) != 1 {
			t.Errorf("%q: %+v, want filter %s", words, s.Fields(), filter)
		}
		schemestest.RoundTrip(t, s, parseLDAP)
	}
}

// TestFilterFault: a filter that does not compile is named with what is
// wrong with it, and without a result code: no server saw it.
func TestFilterFault(t *testing.T) {
	u, err := schemes.Parse("ldap://h/dc=x???(cn=")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(u)
	if msg := fmt.Sprint(err); !strings.Contains(msg, `filter "(cn=": unexpected end of filter (RFC 4515)`) || strings.Contains(msg, "Result Code") {
		t.Errorf("err = %v", err)
	}
}

// TestParent: an entry's parent is a base search of its DN less the
// first RDN (an escaped "," is no separator), keeping the bind;
// the root DSE is above a DN of one RDN, and has nothing above it.
func TestParent(t *testing.T) {
	for raw, want := range map[string]string{
		"ldap://h/ou=a,dc=x":                         "ldap://h/dc=x",
		"ldap://h/ou=a,%20dc=x??one?(cn=b)":          "ldap://h/dc=x",
		"ldap://h/cn=a%5C,b,dc=x":                    "ldap://h/dc=x",
		"ldap://h/cn=a%5C%5C,dc=x":                   "ldap://h/dc=x",
		"ldap://h/cn=a%5C2Cb;dc=x":                   "ldap://h/dc=x",
		"ldap://h/cn=m,dc=x????bindname=cn=m%2Cdc=x": "ldap://h/dc=x????bindname=cn=m%2Cdc=x",
		"ldap://h/dc=x":                              "ldap://h/",
		"ldaps://h:1636/dc=x":                        "ldaps://h:1636/",
	} {
		l, err := parseLDAP(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		p, ok := l.Parent()
		if !ok || p.String() != want {
			t.Errorf("%s: parent %v, %v; want %s", raw, p, ok, want)
			continue
		}
		schemestest.RoundTrip(t, p.(*URL), parseLDAP)
		if up, ok := p.(*URL).Parent(); p.(*URL).DN == "" && ok {
			t.Errorf("%s: the root DSE has a parent, %v", raw, up)
		}
	}
}
