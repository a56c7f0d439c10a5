package fetch

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestRedirectsCounted: Response.Redirects and Result.Redirects are the
// redirects followed (curl's num_redirects), whichever way the resource
// is retrieved.
func TestRedirectsCounted(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"c": "final"}, redirects: map[string]string{"a": "t:b", "b": "t:c"}}
	c := newClient(h)
	for _, c2 := range []struct {
		raw  string
		want int
	}{{"t:a", 2}, {"t:b", 1}, {"t:c", 0}} {
		resp, err := c.Get(context.Background(), c2.raw)
		if err != nil {
			t.Fatal(err)
		}
		resp.Close()
		if resp.Redirects != c2.want {
			t.Errorf("Get %s: Redirects %d, want %d", c2.raw, resp.Redirects, c2.want)
		}
		res, err := c.Download(context.Background(), c2.raw, filepath.Join(t.TempDir(), "f"), DownloadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Redirects != c2.want {
			t.Errorf("Download %s: Redirects %d, want %d", c2.raw, res.Redirects, c2.want)
		}
	}
}

// TestRedirectsTold: each request of a chain is told the statuses of the
// redirects that led to it (schemes.Request.Redirects: how the http
// handler keeps or drops a body), the first none.
func TestRedirectsTold(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"c": "final"}, redirects: map[string]string{"a": "t:b", "b": "t:c"}}
	resp, err := newClient(h).Get(context.Background(), "t:a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Close()
	if want := [][]int{nil, {302}, {302, 302}}; !slices.EqualFunc(h.hops, want, slices.Equal) {
		t.Errorf("redirects told %v, want %v", h.hops, want)
	}
}

// TestRedirectsWithin: a scheme whose Caps say RedirectsWithin (gemini)
// follows its own redirects by default, but no other scheme's redirect
// reaches it unless the caller allows it (RedirectProtocols), as the
// house's default reach is curl's: http, https, ftp and ftps.
func TestRedirectsWithin(t *testing.T) {
	own := &fakeHandler{data: map[string]string{"b": "there"}, redirects: map[string]string{"a": "g:b"}}
	web := &fakeHandler{redirects: map[string]string{"x": "g:b"}}
	r := schemes.NewRegistry()
	parse := func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }
	r.Register(schemes.Scheme{Name: "g", Handler: own, Caps: schemes.Retrieves | schemes.RedirectsWithin, Parse: parse})
	r.Register(schemes.Scheme{Name: "t", Handler: web, Caps: schemes.Retrieves | schemes.RedirectTarget, Parse: parse})
	c := &Client{Registry: r}
	resp, err := c.Get(context.Background(), "g:a")
	if err != nil {
		t.Fatalf("g to g: %v", err)
	}
	resp.Close()
	if resp.URL.String() != "g:b" || resp.Redirects != 1 {
		t.Fatalf("g to g: at %s after %d redirects", resp.URL, resp.Redirects)
	}
	if _, err := c.Get(context.Background(), "t:x"); schemes.KindOf(err) != schemes.KindSafety {
		t.Fatalf("t to g by default: %v, want refused (KindSafety)", err)
	}
	c.RedirectProtocols = Protocols{"g": true, "t": true}
	if resp, err := c.Get(context.Background(), "t:x"); err != nil {
		t.Fatalf("t to g allowed by the caller: %v", err)
	} else {
		resp.Close()
	}
}
