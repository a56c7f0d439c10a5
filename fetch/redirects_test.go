package fetch

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
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
