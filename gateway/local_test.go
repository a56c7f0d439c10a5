package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// resolver is a resolving scheme's handler (as Prospero's is): every URL
// resolves to the URL to.
type resolver struct{ to string }

func (h resolver) Fetch(context.Context, *schemes.Request) (*schemes.Response, error) {
	return &schemes.Response{Resolved: &schemes.Resolution{URL: h.to, Chain: []string{"resolved"}}, Size: -1}, nil
}

func (h resolver) Explain(*schemes.Request) ([]string, error) { return []string{"resolve"}, nil }

type resolverURL struct{ u *schemes.URL }

func (l resolverURL) Generic() *schemes.URL { return l.u }
func (l resolverURL) String() string        { return l.u.String() }
func (l resolverURL) Redacted() string      { return l.u.Redacted() }
func (l resolverURL) Fields() any           { return nil }
func (l resolverURL) LocalName() string     { return "" }

// TestLocalFilesOnlyWithAllowFile: without AllowFile, nothing the gateway
// retrieves reads a local file, whichever way it comes to file: — asked
// for, resolved to (a resolving scheme's access method naming a path on
// this host) or redirected to (by a Client whose policy lets redirects
// reach file:); with AllowFile each is served.
func TestLocalFilesOnlyWithAllowFile(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("local secret\n"), 0o600)
	fileURL := "file://" + filepath.ToSlash(secret)
	up := httptest.NewServer(http.RedirectHandler(fileURL, http.StatusFound))
	defer up.Close()
	client := func() *fetch.Client {
		r := mustRegistry(t, fetch.Config{}) // its own: a scheme is added
		r.Register(schemes.Scheme{Name: "res", Handler: resolver{fileURL}, Caps: schemes.Retrieves,
			Parse: func(u *schemes.URL) (schemes.Locator, error) { return resolverURL{u}, nil }})
		return &fetch.Client{Registry: r, RedirectProtocols: fetch.Protocols{"file": true, "http": true}}
	}
	for _, c := range []struct{ name, url string }{
		{"asked for", fileURL},
		{"resolved to", "res://127.0.0.1/x"},
		{"redirected to", up.URL + "/x"},
	} {
		for _, allow := range []bool{false, true} {
			base := gateway(t, Options{Client: client(), AllowFile: allow})
			resp, body := get(t, newRequest(t, "GET", base+Address(c.url)))
			switch {
			case !allow && (resp.StatusCode != http.StatusForbidden || strings.Contains(body, "local secret")):
				t.Errorf("%s, without AllowFile: %d %q, want 403 without the file", c.name, resp.StatusCode, body)
			case allow && (resp.StatusCode != http.StatusOK || body != "local secret\n"):
				t.Errorf("%s, with AllowFile: %d %q, want the file", c.name, resp.StatusCode, body)
			}
		}
	}
}

// TestWithoutLocalKeepsTheOthers: the registry of a gateway without
// AllowFile parses every scheme as the Client's does, with the same Caps,
// and only the Local schemes' handlers are replaced.
func TestWithoutLocalKeepsTheOthers(t *testing.T) {
	orig := fetch.DefaultRegistry()
	got := withoutLocal(orig)
	if a, b := strings.Join(orig.Names(), ","), strings.Join(got.Names(), ","); a != b {
		t.Fatalf("schemes %s, want %s", b, a)
	}
	for _, n := range orig.Names() {
		o, _ := orig.Lookup(n)
		g, _ := got.Lookup(n)
		_, refused := g.Handler.(refuseLocal)
		if g.Caps != o.Caps || refused != o.Caps.Has(schemes.Local) || !refused && g.Handler != o.Handler {
			t.Errorf("%s: caps %v (was %v), handler replaced %v", n, g.Caps, o.Caps, refused)
		}
	}
	if withoutLocal(nil) == nil {
		t.Error("withoutLocal(nil) is nil, want the default schemes")
	}
}

// mustRegistry is fetch.NewRegistry, failing the test on an error.
func mustRegistry(t *testing.T, cfg fetch.Config) *schemes.Registry {
	t.Helper()
	r, err := fetch.NewRegistry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
