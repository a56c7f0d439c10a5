package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRangeAndTimeFlagsRefused: -r and -z that cannot be meant, or go
// with what they cannot, are usage errors (exit 2) naming the flags,
// before anything is retrieved.
func TestRangeAndTimeFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.WriteFile(src, []byte("0123456789"), 0o644)
	u := "file://" + src
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-r", "5-3", u}, `-r 5-3: "5-3": the range ends before it starts`},
		{[]string{"-r", "a-b", u}, "digits 0-9"},
		{[]string{"-r", "", u}, "no range"},
		{[]string{"-r", "-0", u}, "no bytes"},
		{[]string{"-r", "1-2", "-C", "-", "-o", filepath.Join(dir, "o"), u}, "-r and -C -"},
		{[]string{"-r", "1-2", "--segments", "4", "-o", filepath.Join(dir, "o"), u}, "-r and --segments"},
		{[]string{"-r", "1-2", "-I", u}, "-I and -r"},
		{[]string{"-z", "20 Jan 2025", "-I", u}, "-I and -z"},
		{[]string{"-z", "=20 Jan 2025", u}, `"=" (modified exactly then)`},
		{[]string{"ls", "-r", "1-2", "file://" + dir + "/"}, "--range is not an ls flag"},
		{[]string{"ls", "-z", "20 Jan 2025", "file://" + dir + "/"}, "--time-cond is not an ls flag"},
		{[]string{"mirror", "-r", "1-2", "file://" + dir + "/", filepath.Join(dir, "m")}, "--range is not a mirror flag"},
		{[]string{"mirror", "-z", "20 Jan 2025", "file://" + dir + "/", filepath.Join(dir, "m")}, "--time-cond is not a mirror flag"},
	} {
		out, errs, code := urlget(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o")); err == nil {
		t.Error("a refused command wrote its file")
	}
}

// rangeServer serves "0123456789" as net/http does (Range, several
// ranges, If-Modified-Since, If-Unmodified-Since), modified at mod, at
// /f, and the same bytes ignoring every condition at /plain.
func rangeServer(t *testing.T, mod time.Time) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/plain" {
			w.Header().Set("Last-Modified", mod.Format(http.TimeFormat))
			io.WriteString(w, "0123456789")
			return
		}
		http.ServeContent(w, r, "f", mod, strings.NewReader("0123456789"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRangeOutputs: -r writes exactly the bytes asked for, to stdout, -o
// and -O, for http, file and a server that ignores ranges (the bytes
// before the range read and dropped, with a note); a list is the
// server's multipart reply as it came; a scheme that cannot ask for a
// range is refused, exit 8, naming what it lacks and -r; a range past
// the end is HTTP's 416 (an error status as any) or a file's exit 6.
func TestRangeOutputs(t *testing.T) {
	srv := rangeServer(t, time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))
	dir := t.TempDir()
	local := filepath.Join(dir, "local.txt")
	os.WriteFile(local, []byte("0123456789"), 0o644)
	for _, tc := range []struct {
		rng, url, want, note string
	}{
		{"2-5", srv.URL + "/f", "2345", ""},
		{"7-", srv.URL + "/f", "789", ""},
		{"-3", srv.URL + "/f", "789", ""},
		{"8-99", srv.URL + "/f", "89", ""},
		{"2-5", srv.URL + "/plain", "2345", "not the range asked for"},
		{"-3", srv.URL + "/plain", "789", "not the range asked for"},
		{"2-5", "file://" + local, "2345", ""},
		{"-4", "file://" + local, "6789", ""},
	} {
		out, errs, code := urlget(t, "", "-r", tc.rng, tc.url)
		if code != 0 || out != tc.want || tc.note != "" && !strings.Contains(errs, tc.note) || tc.note == "" && errs != "" {
			t.Errorf("-r %s %s: exit %d %q, stderr %q; want %q", tc.rng, tc.url, code, out, errs, tc.want)
		}
		o := filepath.Join(dir, "o")
		if _, errs, code := urlget(t, "", "-s", "-r", tc.rng, "-o", o, tc.url); code != 0 || readFile(t, o) != tc.want {
			t.Errorf("-r %s -o: exit %d %q %s", tc.rng, code, readFile(t, o), errs)
		}
		if _, err := os.Stat(o + ".part"); err == nil {
			t.Errorf("-r %s -o: a work file is left", tc.rng)
		}
	}
	od := filepath.Join(dir, "O")
	if _, errs, code := urlget(t, "", "-s", "-r", "0-3", "-O", "--output-dir", od, srv.URL+"/f"); code != 0 || readFile(t, filepath.Join(od, "f")) != "0123" {
		t.Errorf("-r -O: exit %d %s", code, errs)
	}
	out, errs, code := urlget(t, "", "-r", "0-0,-1", srv.URL+"/f")
	if code != 0 || !strings.Contains(out, "Content-Range: bytes 0-0/10\r\n") || !strings.Contains(out, "\r\n\r\n0\r\n--") ||
		!strings.Contains(out, "Content-Range: bytes 9-9/10\r\n") || !strings.Contains(out, "\r\n\r\n9\r\n--") {
		t.Errorf("-r 0-0,-1: exit %d %q %s", code, out, errs)
	}
	if _, errs, code := urlget(t, "", "-r", "0-0,-1", srv.URL+"/plain"); code != 6 || !strings.Contains(errs, "whole resource instead") {
		t.Errorf("-r 0-0,-1 answered whole: exit %d %s", code, errs)
	}
	if _, errs, code := urlget(t, "", "-r", "0-0,-1", "file://"+local); code != 8 || !strings.Contains(errs, "one range a request") || !strings.Contains(errs, "(-r)") {
		t.Errorf("-r 0-0,-1 file: exit %d %s", code, errs)
	}
	if _, errs, code := urlget(t, "", "-r", "1-2", "gopher://127.0.0.1:1/0/x"); code != 8 || !strings.Contains(errs, "gopher: URLs cannot be asked for a byte range") {
		t.Errorf("-r gopher: exit %d %s", code, errs)
	}
	// Past the end: HTTP's 416 is an error status as any (its page
	// written, exit 0; -f: 22), as curl has it; a file's is exit 6.
	if out, errs, code := urlget(t, "", "-r", "10-", srv.URL+"/f"); code != 0 || out == "" || !strings.Contains(errs, "416") {
		t.Errorf("-r past the end: exit %d %q %s", code, out, errs)
	}
	if out, errs, code := urlget(t, "", "-f", "-r", "10-", srv.URL+"/f"); code != 22 || out != "" {
		t.Errorf("-f -r past the end: exit %d %q %s", code, out, errs)
	}
	if _, errs, code := urlget(t, "", "-r", "10-", "file://"+local); code != 6 || !strings.Contains(errs, "not satisfiable") {
		t.Errorf("-r past the end of a file: exit %d %s", code, errs)
	}
	if out, _, _ := urlget(t, "", "--explain", "-r", "2-5", srv.URL+"/f"); !strings.Contains(out, "Range: bytes=2-5") {
		t.Errorf("--explain -r: %q", out)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, _ := os.ReadFile(name)
	return string(b)
}

// TestTimeCondOutputs: -z retrieves only what changed after its time,
// -z -TIME only what did not, by a date or a file's mtime; what is left
// unsent writes nothing (an existing -o file stays as it was), exits 0 and
// says so unless -s, and -w reports the 304; a -z that is neither a date
// nor a file is warned about and ignored, as curl does.
func TestTimeCondOutputs(t *testing.T) {
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := rangeServer(t, mod)
	dir := t.TempDir()
	older, newer := filepath.Join(dir, "older"), filepath.Join(dir, "newer")
	for name, mt := range map[string]time.Time{older: mod.Add(-time.Hour), newer: mod.Add(time.Hour)} {
		os.WriteFile(name, nil, 0o644)
		os.Chtimes(name, mt, mt)
	}
	for _, tc := range []struct {
		cond  string
		path  string
		sent  bool
		note  string
		extra []string
	}{
		{cond: "Mon, 01 Jan 2024 00:00:00 GMT", path: "/f", sent: true},
		{cond: "2 Jan 2024 03:04:05 GMT", path: "/f", note: "not modified since Tue, 02 Jan 2024 03:04:05 GMT"},
		{cond: "20 Jan 2030", path: "/f", note: "not modified since"},
		{cond: "20 Jan 2030", path: "/plain", note: "not modified since"}, // the server ignores it: urlget checks
		{cond: "-20 Jan 2030", path: "/f", sent: true},
		{cond: "-1 Jan 2024", path: "/f", note: "modified after Mon, 01 Jan 2024"},
		{cond: "-1 Jan 2024", path: "/plain", note: "modified after"},
		{cond: older, path: "/f", sent: true},
		{cond: newer, path: "/f", note: "not modified since"},
		{cond: "-" + older, path: "/f", note: "modified after"},
		{cond: filepath.Join(dir, "missing"), path: "/f", sent: true, note: "neither a date"},
	} {
		out, errs, code := urlget(t, "", "-z", tc.cond, srv.URL+tc.path)
		if code != 0 || (out == "0123456789") != tc.sent || tc.note != "" && !strings.Contains(errs, tc.note) || tc.note == "" && errs != "" {
			t.Errorf("-z %q %s: exit %d %q, stderr %q", tc.cond, tc.path, code, out, errs)
		}
		o := filepath.Join(dir, "o")
		os.WriteFile(o, []byte("kept"), 0o644)
		out, errs, code = urlget(t, "", "-s", "-w", "%{http_code}", "-z", tc.cond, "-o", o, srv.URL+tc.path)
		want, status := "kept", "304"
		if tc.sent {
			want, status = "0123456789", "200"
		} else if strings.HasPrefix(tc.cond, "-") {
			status = "412"
		}
		if code != 0 || readFile(t, o) != want || out != status || errs != "" {
			t.Errorf("-s -z %q -o: exit %d, file %q, -w %q, stderr %q; want %q %s", tc.cond, code, readFile(t, o), out, errs, want, status)
		}
	}
}
