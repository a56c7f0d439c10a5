package fetch

import (
	"context"
	"path/filepath"
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
