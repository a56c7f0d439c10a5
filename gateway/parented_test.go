package gateway

import (
	"context"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// dnURL is a URL whose place nests as a DN does, the nearest step first
// ("cn=p,ou=a,dc=x" is below "ou=a,dc=x"): schemes.Parented.
type dnURL struct{ u *schemes.URL }

var _ schemes.Parented = dnURL{}

func (l dnURL) Generic() *schemes.URL { return l.u }
func (l dnURL) String() string        { return l.u.String() }
func (l dnURL) Redacted() string      { return l.u.Redacted() }
func (l dnURL) Fields() any           { return nil }
func (l dnURL) LocalName() string     { rdn, _, _ := strings.Cut(l.u.Path, ","); return rdn }

func (l dnURL) Parent() (schemes.Locator, bool) {
	if l.u.Path == "" {
		return nil, false
	}
	u := *l.u
	_, u.Path, _ = strings.Cut(l.u.Path, ",")
	return dnURL{&u}, true
}

// dnDirs answers every URL with an empty listing, a directory.
type dnDirs struct{}

func (dnDirs) Fetch(context.Context, *schemes.Request) (*schemes.Response, error) {
	return &schemes.Response{Listing: schemes.ListingOf(nil), Kind: schemes.EntryDir, Size: -1}, nil
}

func (dnDirs) Explain(*schemes.Request) ([]string, error) { return []string{"list"}, nil }

// TestParentedCrumbs: the page of a URL whose scheme names its parents
// (schemes.Parented) has them as its crumbs, up to the server's root, and
// its Up link leads to the nearest, not to the root that its url-path's
// lone "/" would make of every step.
func TestParentedCrumbs(t *testing.T) {
	r := mustRegistry(t, fetch.Config{})
	r.Register(schemes.Scheme{Name: "dn", Handler: dnDirs{}, Caps: schemes.Retrieves,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return dnURL{u}, nil }})
	base := gateway(t, Options{Client: &fetch.Client{Registry: r}})
	root := "dn://127.0.0.1/"
	p := getPage(t, base, Address(root+"cn=p,ou=a,dc=x"))
	names, hrefs := p.crumbs()
	if got, want := strings.Join(names, " | "), root+" | dc=x | ou=a | cn=p"; got != want {
		t.Errorf("crumbs read %q, want %q", got, want)
	}
	want := []string{Address(root), Address(root + "dc=x"), Address(root + "ou=a,dc=x"), ""}
	if strings.Join(hrefs, " ") != strings.Join(want, " ") {
		t.Errorf("crumbs lead to\n%q\nwant\n%q", hrefs, want)
	}
	if up := p.byID("up"); up == nil || attr(up, "href") != Address(root+"ou=a,dc=x") {
		t.Errorf("Up: %v, want a link to ou=a,dc=x", up)
	}
	// The top has neither.
	if top := getPage(t, base, Address(root)); top.byID("crumbs") != nil || top.byID("up") != nil {
		t.Error("the top has crumbs or an Up link")
	}
}
