package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteOut(t *testing.T) {
	ok := &writeOutVars{ResponseCode: 200, SizeDownload: 43, URL: "http://h/", URLEffective: "http://h/README.txt",
		Scheme: "http", ContentType: "text/plain", FilenameEffective: "f", NumRedirects: 1,
		TimeTotal: 1500 * time.Millisecond, URLNum: 2}
	failed := &writeOutVars{URL: "ftp://h/x", URLEffective: "ftp://h/x", ExitCode: 3, ErrorMsg: "ftp://h/x: 550 no"}
	for _, c := range []struct {
		name, format   string
		v              *writeOutVars
		stdout, stderr string
		warned         []string
	}{
		{"codes", "%{response_code} %{http_code}\n", ok, "200 200\n", "", nil},
		{"no reply is 000", "%{http_code}", failed, "000", "", nil},
		{"sizes and names", "%{size_download} %{url_effective} %{url} %{filename_effective} %{content_type} %{num_redirects} %{scheme} %{urlnum}",
			ok, "43 http://h/README.txt http://h/ f text/plain 1 http 2", "", nil},
		{"time in seconds", "%{time_total}", ok, "1.500000", "", nil},
		{"failure", "%{exitcode} %{errormsg}", failed, "3 ftp://h/x: 550 no", "", nil},
		{"escapes", `a\tb\r\n\x\`, ok, "a\tb\r\n\\x\\", "", nil},
		{"percent", "100%% %d %", ok, "100% %d %", "", nil},
		{"unterminated", "x%{http_code", ok, "x%{http_code", "", nil},
		{"unknown", "[%{nope}]", ok, "[]", "", []string{"nope"}},
		{"stderr switch", "a%{stderr}b%{stdout}c", ok, "ac", "b", nil},
		{"onerror on success", "a%{onerror}b", ok, "a", "", nil},
		{"onerror on failure", "a%{onerror}b", failed, "ab", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			var warned []string
			writeOut(c.format, c.v, &out, &errw, func(n string) { warned = append(warned, n) })
			if out.String() != c.stdout || errw.String() != c.stderr {
				t.Errorf("stdout %q stderr %q, want %q %q", out.String(), errw.String(), c.stdout, c.stderr)
			}
			if strings.Join(warned, ",") != strings.Join(c.warned, ",") {
				t.Errorf("warned %v, want %v", warned, c.warned)
			}
		})
	}
}

func TestWriteOutJSON(t *testing.T) {
	var out bytes.Buffer
	v := &writeOutVars{ResponseCode: 226, SizeDownload: 7, URLEffective: "ftp://h/f", TimeTotal: time.Second / 4}
	writeOut("%{json}", v, &out, &out, func(string) {})
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%q: %v", out.String(), err)
	}
	want := map[string]any{"response_code": 226.0, "http_code": 226.0, "size_download": 7.0, "url_effective": "ftp://h/f",
		"time_total": 0.25, "content_type": nil, "errormsg": nil, "exitcode": 0.0, "num_redirects": 0.0}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %#v, want %#v (in %s)", k, got[k], w, out.String())
		}
	}
	if len(got) != len(writeOutNames) {
		t.Errorf("%d keys, want %d: %s", len(got), len(writeOutNames), out.String())
	}
}

func TestReadWriteOut(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fmt")
	os.WriteFile(file, []byte("%{http_code}\\n"), 0o644)
	for _, c := range []struct {
		arg, stdin, want, err string
	}{
		{"%{http_code}", "", "%{http_code}", ""},
		{"@" + file, "", "%{http_code}\\n", ""},
		{"@-", "from stdin", "from stdin", ""},
		{"@" + filepath.Join(dir, "missing"), "", "", "-w @" + filepath.Join(dir, "missing") + ": open"},
	} {
		got, err := readWriteOut(c.arg, strings.NewReader(c.stdin))
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && !strings.HasPrefix(err.Error(), c.err)) {
			t.Errorf("readWriteOut(%q) = %q, %v; want %q, %q", c.arg, got, err, c.want, c.err)
		}
	}
}
