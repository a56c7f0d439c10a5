package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/httpfake"
)

// TestJSONURLIsTheRequestThatFailed: when a redirect's target fails, the
// report's url is that target (redacted), not the URL given; input stays
// the URL given. With -o as without, for a target that answers 404, one
// whose port refuses the connection, and one reached by two redirects
// whose URL holds a password; without a redirect url is the input. (-f:
// a 404 fails, exit 22; without it the page is the resource.)
func TestJSONURLIsTheRequestThatFailed(t *testing.T) {
	srv := httpfake.NewRedirects(t)
	dir := t.TempDir()
	for _, tt := range []struct {
		path, url string
		code      int
	}{
		{"/to-404", srv.URL + "/missing", 22},
		{"/to-refused", srv.Refused, 5},
		{"/to-secret", strings.Replace(srv.URL, "://", "://u:****@", 1) + "/missing", 22},
		{"/missing", srv.URL + "/missing", 22},
	} {
		for _, out := range [][]string{nil, {"-o", filepath.Join(dir, "f")}} {
			args := append(append([]string{"--json", "-sf"}, out...), srv.URL+tt.path)
			stdout, stderr, code := urlget(t, "", args...)
			var rep report
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatalf("%q: %v in %q (stderr %q)", args, err, stdout, stderr)
			}
			if rep.URL != tt.url || rep.Input != srv.URL+tt.path || rep.Error == nil {
				t.Errorf("%q: url %q, input %q, error %+v; want url %q", args, rep.URL, rep.Input, rep.Error, tt.url)
			}
			if code != tt.code || strings.Contains(stdout+stderr, "hunter2") {
				t.Errorf("%q: exit %d (want %d), output %s %s", args, code, tt.code, stdout, stderr)
			}
		}
	}
}
