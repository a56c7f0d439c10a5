package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJSONBodyGoesToStdoutBeforeItsReport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/text", http.StatusFound)
		case "/text":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("line one\nline two\n"))
		case "/noeol":
			w.Write([]byte("no newline at the end"))
		}
	}))
	defer srv.Close()
	for _, tc := range []struct {
		path, body string
	}{
		{"/moved", "line one\nline two\n"},
		{"/noeol", "no newline at the end\n"}, // the report starts a line of its own
	} {
		stdout, stderr, code := urlget(t, "", "--json", srv.URL+tc.path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.path, code, stderr)
		}
		body, line, _ := strings.Cut(stdout, "{")
		if body != tc.body {
			t.Errorf("%s: body %q, want %q", tc.path, body, tc.body)
		}
		var rep report
		if err := json.Unmarshal([]byte("{"+line), &rep); err != nil {
			t.Fatalf("%s: %v in %q", tc.path, err, stdout)
		}
		if rep.Bytes != int64(len(strings.TrimSuffix(tc.body, "\n"))) && rep.Bytes != int64(len(tc.body)) {
			t.Errorf("%s: bytes %d", tc.path, rep.Bytes)
		}
		if rep.Input != srv.URL+tc.path {
			t.Errorf("%s: input %q", tc.path, rep.Input)
		}
		if tc.path == "/moved" && (rep.URL != srv.URL+"/text" || rep.Type != "text/plain" || rep.Bytes != int64(len(tc.body))) {
			t.Errorf("after a redirect: %+v", rep)
		}
	}
}

func TestJSONEmptyContainerHasEntries(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	for _, args := range [][]string{
		{"--json", "file://" + empty + "/"},
		{"--json", "-o", filepath.Join(dir, "listing.txt"), "file://" + empty + "/"},
	} {
		stdout, stderr, code := urlget(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%q: %v: %q", args, err, stdout)
		}
		if e, ok := got["entries"].([]any); !ok || len(e) != 0 {
			t.Errorf("%q: entries %v, want [] (%s)", args, got["entries"], stdout)
		}
	}
}

func TestStdoutChecksumMismatchIsExit6(t *testing.T) {
	body := []byte("the real content\n")
	wrong := sha256.Sum256([]byte("something else"))
	right := sha256.Sum256(body)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sum := right
		if r.URL.Path == "/bad" {
			sum = wrong
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Repr-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":")
		w.Write(body)
	}))
	defer srv.Close()
	if stdout, stderr, code := urlget(t, "", srv.URL+"/good"); code != 0 || stdout != string(body) {
		t.Fatalf("good: exit %d, %q, %s", code, stdout, stderr)
	}
	stdout, stderr, code := urlget(t, "", srv.URL+"/bad")
	if code != 6 || !strings.Contains(stderr, "SHA-256") {
		t.Fatalf("bad: exit %d, stderr %q", code, stderr)
	}
	if stdout != string(body) {
		t.Errorf("bad: stdout %q", stdout)
	}
	// --json: the error's report still says what was received.
	stdout, _, code = urlget(t, "", "--json", srv.URL+"/bad")
	var rep report
	if err := json.Unmarshal([]byte(lastLine(stdout)), &rep); err != nil || code != 6 {
		t.Fatalf("exit %d, %v: %q", code, err, stdout)
	}
	if rep.Error == nil || rep.Error.Kind != "protocol" || rep.Type != "text/plain" || rep.Bytes != int64(len(body)) {
		t.Fatalf("report %+v, error %+v", rep, rep.Error)
	}
}
