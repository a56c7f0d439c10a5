package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func ls(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestRemoteHeaderName: -J takes the server's name, cut to a file name in
// --output-dir; with none usable it is -O's; a file is never replaced by a
// name the server chose, and no work file is left behind.
func TestRemoteHeaderName(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cd := r.URL.Query().Get("cd"); cd != "" {
			w.Header().Set("Content-Disposition", cd)
		}
		w.Write([]byte("body"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	for i, tc := range []struct{ cd, want string }{
		{`attachment; filename="../../evil.txt"`, "evil.txt"},
		{`attachment; filename="plain.txt"; filename*=UTF-8''%E2%82%AC.txt`, "\u20ac.txt"},
		{`attachment; filename=".."`, "get"},
		{`attachment; filename="a%0Db"`, "a%0Db"},
		{"", "get"},
	} {
		sub := filepath.Join(dir, fmt.Sprint(i))
		u := srv.URL + "/get?cd=" + urlQuery(tc.cd)
		if _, stderr, code := urlget(t, "", "-sS", "--output-dir", sub, "-OJ", u); code != 0 {
			t.Fatalf("%s: exit %d %s", tc.cd, code, stderr)
		}
		if names := ls(t, sub); !slices.Equal(names, []string{tc.want}) {
			t.Errorf("%s: files %q, want %q", tc.cd, names, tc.want)
		}
	}
	sub := filepath.Join(dir, "exists")
	os.MkdirAll(sub, 0o777)
	os.WriteFile(filepath.Join(sub, "evil.txt"), []byte("mine"), 0o644)
	_, stderr, code := urlget(t, "", "-sS", "--output-dir", sub, "-OJ", srv.URL+"/get?cd="+urlQuery(`attachment; filename="evil.txt"`))
	if b, _ := os.ReadFile(filepath.Join(sub, "evil.txt")); code == 0 || string(b) != "mine" || !strings.Contains(stderr, "exists") {
		t.Errorf("an existing file: exit %d %q, file %q", code, stderr, b)
	}
	if names := ls(t, sub); !slices.Equal(names, []string{"evil.txt"}) {
		t.Errorf("left %q", names)
	}
	if _, stderr, code := urlget(t, "", "-OJ", "-C", "-", srv.URL+"/get"); code != 2 || !strings.Contains(stderr, "-J and -C -") {
		t.Errorf("-J -C -: exit %d %q", code, stderr)
	}
}

func urlQuery(s string) string {
	r := strings.NewReplacer("%", "%25", " ", "%20", "\"", "%22", ";", "%3B", "=", "%3D", "'", "%27", "&", "%26")
	return r.Replace(s)
}

// TestCreateDirs: --create-dirs makes the directories of -o's path;
// without it a missing one is an error naming it.
func TestCreateDirs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) }))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "a", "b", "f")
	if _, stderr, code := urlget(t, "", "-sS", "-o", out, srv.URL+"/f"); code == 0 || !strings.Contains(stderr, "there is no directory") {
		t.Errorf("without --create-dirs: exit %d %q", code, stderr)
	}
	if _, stderr, code := urlget(t, "", "-sS", "--create-dirs", "-o", out, srv.URL+"/f"); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "x" {
		t.Errorf("%q %v", b, err)
	}
}

// TestCompressedLimits: --compressed writes the decoded bytes, and
// --max-filesize counts those, not the few coded ones; without it the
// bytes are kept as served.
func TestCompressedLimits(t *testing.T) {
	data := bytes.Repeat([]byte("z"), 200<<10)
	var coded bytes.Buffer
	zw := gzip.NewWriter(&coded)
	zw.Write(data)
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(coded.Bytes())
	}))
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "f")
	if _, stderr, code := urlget(t, "", "-sS", "--compressed", "-o", out, srv.URL+"/f"); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !bytes.Equal(b, data) {
		t.Errorf("--compressed wrote %d bytes, want the %d decoded", len(b), len(data))
	}
	if _, stderr, code := urlget(t, "", "-sS", "-o", out, srv.URL+"/f"); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !bytes.Equal(b, coded.Bytes()) {
		t.Errorf("without --compressed: %d bytes, want the %d served", len(b), coded.Len())
	}
	_, stderr, code := urlget(t, "", "-sS", "--compressed", "--max-filesize", "100k", "-o", filepath.Join(dir, "big"), srv.URL+"/f")
	if code != 7 || strings.Count(stderr, "maximum file size") != 1 { // said once, not twice
		t.Errorf("--compressed --max-filesize 100k of 200k decoded: exit %d %q", code, stderr)
	}
}

// TestHeadersStayWithTheirOrigin: -H fields go with a redirect to another
// host and port, except Authorization and Cookie, as curl does; with
// --location-trusted those go too.
func TestHeadersStayWithTheirOrigin(t *testing.T) {
	got := make(chan http.Header, 1)
	to := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- r.Header.Clone() }))
	defer to.Close()
	from := httptest.NewServer(http.RedirectHandler(to.URL+"/there", http.StatusFound))
	defer from.Close()
	for _, trusted := range []bool{false, true} {
		args := []string{"-sS", "-H", "X-Keep: k", "-H", "Cookie: s=1", "-H", "Authorization: Bearer t", "-A", "ua/9", "-e", "http://r/", from.URL + "/"}
		if trusted {
			args = append([]string{"--location-trusted"}, args...)
		}
		if _, stderr, code := urlget(t, "", args...); code != 0 {
			t.Fatalf("exit %d %s", code, stderr)
		}
		h := <-got
		if h.Get("X-Keep") != "k" || h.Get("User-Agent") != "ua/9" || h.Get("Referer") != "http://r/" {
			t.Errorf("trusted %v: %v", trusted, h)
		}
		if sent := h.Get("Cookie") != "" || h.Get("Authorization") != ""; sent != trusted {
			t.Errorf("trusted %v: Cookie %q Authorization %q", trusted, h.Get("Cookie"), h.Get("Authorization"))
		}
	}
	if _, stderr, code := urlget(t, "", "-H", "X: a\r\nY: b", from.URL+"/"); code != 2 || !strings.Contains(stderr, "control character") {
		t.Errorf("CR LF in -H: exit %d %q", code, stderr)
	}
}

// TestMirrorRefusesOutputFlags: the flags that name or shape one output
// file mean nothing to a mirror, and --fail-with-body would write error
// pages into the tree: each is refused.
func TestMirrorRefusesOutputFlags(t *testing.T) {
	for _, flag := range []string{"--fail-with-body", "-J", "--create-dirs"} {
		_, stderr, code := urlget(t, "", "mirror", flag, "http://127.0.0.1:1/", t.TempDir())
		if code != 2 || !strings.Contains(stderr, "is not a mirror flag") {
			t.Errorf("mirror %s: exit %d %q", flag, code, stderr)
		}
	}
}
