package gateway

import (
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// TestStartSchemes: the start page's lists come from the declarations
// and capabilities — every declared base scheme with a handler is listed
// once, a session or a message as a link, a Local one only when the
// gateway may read files — and a scheme added to a registry shows up with
// no change to the gateway.
func TestStartSchemes(t *testing.T) {
	reg := fetch.DefaultRegistry()
	for _, allowFile := range []bool{false, true} {
		v := startSchemes(reg, allowFile)
		for _, name := range reg.Names() {
			n, _ := reg.Declared(name)
			s, _ := reg.Lookup(name)
			inR, inL := slices.Contains(v.Retrieves, name), slices.Contains(v.Links, name)
			link := s.Caps&(schemes.Interactive|schemes.Sends) != 0
			want := n.Of == "" && s.Handler != nil
			switch {
			case n.Of != "" && (inR || inL):
				t.Errorf("%s, a variant of %s, listed", name, n.Of)
			case want && link && (!inL || inR):
				t.Errorf("%s: want a link (retrieves %v, links %v)", name, inR, inL)
			case want && !link && s.Caps.Has(schemes.Local) && inR != allowFile:
				t.Errorf("%s (local) listed %v with allowFile %v", name, inR, allowFile)
			case want && !link && !s.Caps.Has(schemes.Local) && (!inR || inL):
				t.Errorf("%s: want it retrieved (retrieves %v, links %v)", name, inR, inL)
			}
		}
		if len(v.Retrieves) < 5 || len(v.Links) < 1 {
			t.Errorf("allowFile %v: %+v", allowFile, v)
		}
	}
	more := schemes.Declaration{Names: []schemes.Name{{Name: "tproto", Port: 1965}}, New: func(schemes.Values) ([]schemes.Scheme, error) {
		return []schemes.Scheme{{Name: "tproto", Parse: func(u *schemes.URL) (schemes.Locator, error) { return nil, nil },
			Handler: refuseLocal{}, Caps: schemes.Retrieves}}, nil
	}}
	r, err := fetch.NewRegistry(fetch.Config{Schemes: []schemes.Declaration{more}})
	if err != nil {
		t.Fatal(err)
	}
	if v := startSchemes(r, false); !slices.Equal(v.Retrieves, []string{"tproto"}) || v.Links != nil {
		t.Errorf("a new scheme: %+v", v)
	}
}

// TestStartPage: "/" shows the lists, joined as a sentence.
func TestStartPage(t *testing.T) {
	base := gateway(t, Options{})
	resp, body := get(t, newRequest(t, "GET", base+"/"))
	v := startSchemes(nil, false)
	if resp.StatusCode != 200 || !strings.Contains(body, `<span id="retrieves">`+joinNames(v.Retrieves)+"</span>") ||
		!strings.Contains(body, `<span id="links">`+joinNames(v.Links)+"</span>") {
		t.Errorf("%d\n%s", resp.StatusCode, body)
	}
}

func TestJoinNames(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := joinNames(tc.in); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}
