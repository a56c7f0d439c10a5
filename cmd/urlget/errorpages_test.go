package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// statusServer answers /status/N with status N and the page "page N\n",
// redirects /old to /f, and answers anything else with "body" and a
// field naming the path (X-Mine).
func statusServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n, ok := strings.CutPrefix(r.URL.Path, "/status/"); ok {
			code, _ := strconv.Atoi(n)
			w.WriteHeader(code)
			fmt.Fprintf(w, "page %d\n", code)
			return
		}
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/f", http.StatusFound)
			return
		}
		w.Header().Set("X-Mine", r.URL.Path)
		w.Write([]byte("body"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestHTTPStatusExitsAsCurl: an HTTP response of any status is a
// transfer that worked, as with curl: without -f the page is written (to
// stdout and as the -o file alike), the exit status is 0 and stderr says
// which status was written; -f exits 22 and writes nothing;
// --fail-with-body exits 22 with the page. A 3xx that is no redirect is
// data even under -f (curl fails on 400 and up only). -s silences the
// note; -sS does not bring it back (it is no error).
func TestHTTPStatusExitsAsCurl(t *testing.T) {
	srv := statusServer(t)
	note := func(s int) string {
		return fmt.Sprintf("%s/status/%d: %d %s: its page was written; -f makes that a failure (exit 22)", srv.URL, s, s, http.StatusText(s))
	}
	for _, tc := range []struct {
		flags  []string
		status int
		code   int
		page   bool   // the page is written
		stderr string // what stderr holds ("" for nothing)
	}{
		{nil, 200, 0, true, ""},
		{nil, 404, 0, true, note(404)},
		{nil, 500, 0, true, note(500)},
		{nil, 403, 0, true, note(403)},
		{[]string{"-s"}, 404, 0, true, ""},
		{[]string{"-sS"}, 404, 0, true, ""},
		{[]string{"-f"}, 200, 0, true, ""},
		{[]string{"-f"}, 404, 22, false, "404 Not Found"},
		{[]string{"-f"}, 500, 22, false, "500 Internal Server Error"},
		{[]string{"-sSfL"}, 404, 22, false, "404 Not Found"},
		{[]string{"-sf"}, 404, 22, false, ""},
		{[]string{"--fail-with-body"}, 404, 22, true, "404 Not Found: the error page was written"},
		{[]string{"--fail-with-body"}, 500, 22, true, "500 Internal Server Error: the error page was written"},
		{[]string{"-f"}, 300, 0, true, "300 Multiple Choices (not a redirect urlget follows): its page was written"},
	} {
		u := fmt.Sprintf("%s/status/%d", srv.URL, tc.status)
		want := fmt.Sprintf("page %d\n", tc.status)
		if tc.status == 200 {
			want = "body"
			u = srv.URL + "/f"
		}
		for _, to := range []string{"stdout", "-o"} {
			name := fmt.Sprintf("%q %d %s", tc.flags, tc.status, to)
			dir := t.TempDir()
			args := slices.Clone(tc.flags)
			if to == "-o" {
				args = append(args, "-o", filepath.Join(dir, "out"))
			}
			stdout, stderr, code := urlget(t, "", append(args, u)...)
			got := stdout
			if to == "-o" {
				b, _ := os.ReadFile(filepath.Join(dir, "out"))
				got = string(b)
				if names := ls(t, dir); tc.page && !slices.Equal(names, []string{"out"}) || !tc.page && len(names) != 0 {
					t.Errorf("%s: left %q", name, names)
				}
			}
			if code != tc.code {
				t.Errorf("%s: exit %d, want %d: %s", name, code, tc.code, stderr)
			}
			if (got == want) != tc.page || !tc.page && got != "" {
				t.Errorf("%s: wrote %q (page written: %v)", name, got, tc.page)
			}
			if tc.stderr == "" && stderr != "" || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") > 1 {
				t.Errorf("%s: stderr %q, want one line with %q", name, stderr, tc.stderr)
			}
		}
	}
}

// TestStatusScript: the script of issue 33, `code=$(urlget -s -o
// /dev/null -w '%{http_code}' URL)`, prints the status and exits 0, as
// with curl, so that it works under `set -e`; --json says the status and
// that it was written, not failed on; with -f it is the error.
func TestStatusScript(t *testing.T) {
	srv := statusServer(t)
	u := srv.URL + "/status/404"
	stdout, stderr, code := urlget(t, "", "-s", "-o", os.DevNull, "-w", "%{http_code}", u)
	if code != 0 || stdout != "404" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and 404", code, stdout, stderr)
	}
	for _, tc := range []struct {
		flag string
		code int
	}{{"-s", 0}, {"-f", 22}} {
		stdout, stderr, code := urlget(t, "", "-s", tc.flag, "--json", "-o", os.DevNull, u)
		var rep report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != tc.code {
			t.Fatalf("%q: exit %d, %v in %q (%s)", tc.flag, code, err, stdout, stderr)
		}
		failed, written := rep.Error != nil, rep.ErrorPage != nil
		if rep.Status != 404 || failed != (tc.flag == "-f") || written == failed {
			t.Errorf("%q: status %d, error %+v, error_page %+v", tc.flag, rep.Status, rep.Error, rep.ErrorPage)
		}
		if written && (rep.ErrorPage.Code != 404 || rep.ErrorPage.Kind != "not_found" || rep.Bytes != int64(len("page 404\n"))) {
			t.Errorf("%q: error_page %+v, %d bytes", tc.flag, rep.ErrorPage, rep.Bytes)
		}
	}
}

// TestHeadOfErrorStatus: -I shows an error status's head and exits 0, as
// curl -I does; -f shows it, then exits 22, as curl -fI does.
func TestHeadOfErrorStatus(t *testing.T) {
	srv := statusServer(t)
	for _, tc := range []struct {
		flags []string
		code  int
	}{{nil, 0}, {[]string{"-f"}, 22}, {[]string{"--fail-with-body"}, 22}} {
		stdout, stderr, code := urlget(t, "", append(tc.flags, "-I", srv.URL+"/status/404")...)
		if code != tc.code || !strings.HasPrefix(stdout, "HTTP/1.1 404 Not Found\r\n") || !strings.HasSuffix(stdout, "\r\n\r\n") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.flags, code, stdout, stderr)
		}
	}
}

// TestListingsFailOnErrorStatus: urlget ls takes no error page for a
// listing: a 404 fails with urlget's not-found code, -f or not, and
// nothing of the page is listed.
func TestListingsFailOnErrorStatus(t *testing.T) {
	srv := statusServer(t)
	for _, flags := range [][]string{nil, {"-f"}, {"--fail-with-body"}} {
		stdout, stderr, code := urlget(t, "", append(append([]string{"ls"}, flags...), srv.URL+"/status/404")...)
		if code != 3 || stdout != "" || !strings.Contains(stderr, "404 Not Found") {
			t.Errorf("ls %q: exit %d, stdout %q, stderr %q; want 3", flags, code, stdout, stderr)
		}
	}
}

// TestResumeFailsOnErrorStatus: -C - never writes a page after the bytes
// of a partial copy: an error status fails (22), and the copy is kept.
func TestResumeFailsOnErrorStatus(t *testing.T) {
	srv := statusServer(t)
	dest := filepath.Join(t.TempDir(), "f")
	os.WriteFile(dest, []byte("held"), 0o644)
	_, stderr, code := urlget(t, "", "-C", "-", "-o", dest, srv.URL+"/status/404")
	if b, _ := os.ReadFile(dest); code != 22 || string(b) != "held" {
		t.Errorf("exit %d, file %q: %s", code, b, stderr)
	}
}
