package mirror

import (
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// nested is a Locator whose tree is spelled as a DN is, the nearest
// place first ("cn=p,ou=a,dc=x" is below "ou=a,dc=x"): schemes.Parented.
type nested struct {
	host, dn string
}

var _ schemes.Parented = nested{}

func (n nested) Generic() *schemes.URL {
	u, _ := schemes.Parse(n.String())
	return u
}
func (n nested) String() string    { return "x-tree://" + n.host + "/" + n.dn }
func (n nested) Redacted() string  { return n.String() }
func (n nested) Fields() any       { return nil }
func (n nested) LocalName() string { return "" }
func (n nested) TreePath() string  { return n.dn }

func (n nested) Parent() (schemes.Locator, bool) {
	if n.dn == "" {
		return nil, false
	}
	_, rest, _ := strings.Cut(n.dn, ",")
	return nested{n.host, rest}, true
}

// TestScopeNested: a Parented URL is in the tree when it or a container
// above it is the start, on the start's server; a name that merely ends
// alike ("ou=ab") is not below it.
func TestScopeNested(t *testing.T) {
	s := newScope(nested{"h", "ou=a,dc=x"})
	for loc, want := range map[nested]bool{
		{"h", "ou=a,dc=x"}:           true,
		{"h", "cn=p,ou=a,dc=x"}:      true,
		{"h", "cn=q,cn=p,ou=a,dc=x"}: true,
		{"h", "cn=p,ou=ab,dc=x"}:     false,
		{"h", "ou=b,dc=x"}:           false,
		{"h", "dc=x"}:                false,
		{"h", ""}:                    false,
		{"other", "cn=p,ou=a,dc=x"}:  false,
	} {
		if got := s.contains(loc); got != want {
			t.Errorf("%s: contains %v, want %v", loc, got, want)
		}
	}
	if root := newScope(nested{"h", ""}); !root.contains(nested{"h", "cn=p,ou=a,dc=x"}) || root.contains(nested{"other", "dc=x"}) {
		t.Error("the root's scope is not the whole server")
	}
}

// TestInDir: a Parented entry is in the listed directory when its Parent
// is that directory on its server; an entry deeper down, or the
// directory itself (a subtree search's hits), is not. Other URLs are
// always in the directory that lists them.
func TestInDir(t *testing.T) {
	dir := nested{"h", "ou=a,dc=x"}
	for loc, want := range map[nested]bool{
		{"h", "cn=p,ou=a,dc=x"}:      true,
		{"h", "cn=q,cn=p,ou=a,dc=x"}: false,
		{"h", "ou=a,dc=x"}:           false,
		{"h", "cn=p,ou=b,dc=x"}:      false,
		{"other", "cn=p,ou=a,dc=x"}:  false,
	} {
		if got := inDir(dir, loc); got != want {
			t.Errorf("%s: inDir %v, want %v", loc, got, want)
		}
	}
	if !inDir(nested{"h", ""}, nested{"h", "dc=x"}) {
		t.Error("dc=x is not in the root")
	}
	u, _ := schemes.Parse("x-flat://h/a/b")
	if !inDir(nested{"h", "z"}, flat{u}) {
		t.Error("a URL that names no parent is not in the directory that lists it")
	}
}

// flat is a Locator that names no parent.
type flat struct{ u *schemes.URL }

func (f flat) Generic() *schemes.URL { return f.u }
func (f flat) String() string        { return f.u.String() }
func (f flat) Redacted() string      { return f.u.Redacted() }
func (f flat) Fields() any           { return nil }
func (f flat) LocalName() string     { return "" }
