package fetch

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/httpfake"
	"github.com/urlget/urlget/schemes"
)

// TestErrorNamesTheRequestThatFailed: when a redirect's target fails, the
// error of Get, List and Download names that target (redacted), which is
// what the command reports as the url after redirects; a failure without
// redirects names the URL given.
func TestErrorNamesTheRequestThatFailed(t *testing.T) {
	srv := httpfake.NewRedirects(t)
	c := &Client{Registry: defaultRegistry()}
	dir := t.TempDir()
	calls := map[string]func(raw string) error{
		"Get":  func(raw string) error { _, err := c.Get(context.Background(), raw); return err },
		"List": func(raw string) error { _, err := c.List(context.Background(), raw); return err },
		"Download": func(raw string) error {
			_, err := c.Download(context.Background(), raw, filepath.Join(dir, "f"), DownloadOptions{})
			return err
		},
	}
	for _, tt := range []struct{ path, want string }{
		{"/to-404", srv.URL + "/missing"},
		{"/to-refused", srv.Refused},
		{"/to-secret", strings.Replace(srv.URL, "://", "://u:****@", 1) + "/missing"},
		{"/missing", srv.URL + "/missing"},
	} {
		for name, call := range calls {
			err := call(srv.URL + tt.path)
			var se *schemes.Error
			if !errors.As(err, &se) || se.URL != tt.want || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("%s %s: %v, want an error naming %s", name, tt.path, err, tt.want)
			}
		}
	}
}
