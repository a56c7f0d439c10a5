//go:build integration

package integration

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
)

// runBoth runs urlget and curl with the same arguments and returns their
// stdout; neither's exit status matters here (the tests compare them).
func runBoth(t *testing.T, args ...string) (urlget, curl string) {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl to compare with")
	}
	u, _ := exec.Command(urlgetBinary(t), args...).Output()
	c, _ := exec.Command("curl", args...).Output()
	return string(u), string(c)
}

// dateLine is nginx's Date field, which may tick between the two runs.
var dateLine = regexp.MustCompile(`(?m)^Date: [^\r\n]*`)

// TestCurlOutputHead: `urlget -sI` prints what `curl -sI` prints, byte for
// byte — nginx's head as sent (order, spelling, CRLFs), and the lines
// curl makes up for FTP and local files — for the same URLs.
func TestCurlOutputHead(t *testing.T) {
	testbed.Require(t, "http")
	testbed.Require(t, testbed.Vsftpd)
	local := filepath.Join(t.TempDir(), "local.txt")
	os.WriteFile(local, []byte("local\n"), 0o644)
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(local, mod, mod)
	for _, u := range []string{
		"http://" + testbed.Addr(testbed.HTTPPort) + "/README.txt",
		"http://" + testbed.Addr(testbed.HTTPPort) + "/bin/small.bin",
		"http://" + testbed.Addr(testbed.HTTPPort) + "/text/",
		"ftp://" + testbed.Addr(testbed.VsftpdPort) + "/README.txt",
		"ftp://" + testbed.Addr(testbed.VsftpdPort) + "/bin/small.bin",
		"ftp://" + testbed.Addr(testbed.VsftpdPort) + "/bin/",
		"file://" + local,
		"file://" + filepath.Dir(local) + "/",
	} {
		t.Run(u, func(t *testing.T) {
			compareHead(t, "-sI", u)
		})
	}
	t.Run("redirect", func(t *testing.T) { // urlget follows it; curl with -L
		compareHead(t, "-sIL", "http://"+testbed.Addr(testbed.HTTPPort)+"/bin")
	})
	t.Run("https", func(t *testing.T) {
		testbed.Require(t, "https")
		compareHead(t, "--cacert", testbed.CACertFile(), "-sI", "https://"+testbed.Addr(testbed.HTTPSPort)+"/README.txt")
	})
}

// compareHead runs both with args and compares their stdout, nginx's Date
// aside.
func compareHead(t *testing.T, args ...string) {
	t.Helper()
	got, want := runBoth(t, args...)
	got, want = dateLine.ReplaceAllString(got, "Date: D"), dateLine.ReplaceAllString(want, "Date: D")
	if got != want {
		t.Errorf("urlget %q:\n%q\ncurl:\n%q", args, got, want)
	}
}

// TestCurlOutputWriteOut: `urlget -w FORMAT` writes what `curl -w FORMAT`
// writes for curl's common variables, on nginx and vsftpd, for a file,
// a redirect followed and a missing file.
func TestCurlOutputWriteOut(t *testing.T) {
	testbed.Require(t, "http")
	testbed.Require(t, testbed.Vsftpd)
	const format = `%{response_code} %{http_code} %{size_download} %{url_effective} [%{content_type}] %{num_redirects} [%{filename_effective}]\n`
	http, ftp := "http://"+testbed.Addr(testbed.HTTPPort), "ftp://"+testbed.Addr(testbed.VsftpdPort)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"http file", []string{http + "/README.txt"}},
		{"http binary to a file", []string{"-o", os.DevNull, http + "/bin/small.bin"}},
		// urlget follows redirects by default; curl does with -L.
		{"http redirect", []string{"-L", http + "/bin"}},
		// Without -f the 404 page is the resource, for both; with -f
		// neither writes it. (urlget keeps no failed page's
		// Content-Type: its content_type is empty there, curl's is
		// the page's.)
		{"http missing", []string{http + "/nope"}},
		{"http missing -f", []string{"-f", "-w", "%{response_code} %{size_download} %{url_effective} %{num_redirects}", http + "/nope"}},
		{"ftp file", []string{ftp + "/README.txt"}},
		{"ftp file to a file", []string{"-o", os.DevNull, ftp + "/bin/small.bin"}},
		{"ftp missing", []string{ftp + "/nope"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-s", "-w", format}, c.args...) // a later -w wins, in both
			got, want := runBoth(t, args...)
			if got != want {
				t.Errorf("urlget %q:\n%q\ncurl:\n%q", args, got, want)
			}
		})
	}
}

// TestCurlOutputWriteOutJSON: %{json} has curl's values for the
// variables both have, no variable curl lacks but urlget's own
// (segments), and the exit code and message of a failure.
func TestCurlOutputWriteOutJSON(t *testing.T) {
	testbed.Require(t, "http")
	u := "http://" + testbed.Addr(testbed.HTTPPort) + "/README.txt"
	got, want := runBoth(t, "-s", "-o", os.DevNull, "-w", "%{json}", u)
	var g, w map[string]any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("urlget %%{json}: %v: %q", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("curl %%{json}: %v: %q", err, want)
	}
	for k, gv := range g {
		wv, ok := w[k]
		switch {
		case k == "time_total" || k == "scheme": // a time; curl 7 spells the scheme in capitals
			if _, isNum := gv.(float64); k == "time_total" && !isNum {
				t.Errorf("time_total %#v, want a number", gv)
			}
		case k == "segments": // urlget's own (--segments): 0, one connection
			if gv != float64(0) {
				t.Errorf("segments %#v, want 0 without --segments", gv)
			}
		case !ok:
			t.Errorf("urlget has %s, curl has not", k)
		case gv != wv:
			t.Errorf("%s: urlget %#v, curl %#v", k, gv, wv)
		}
	}
	got, _ = runBoth(t, "-s", "-w", "%{exitcode} %{errormsg}", "ftp://"+testbed.Addr(testbed.VsftpdPort)+"/nope")
	if !strings.HasPrefix(got, "3 ftp://") || !strings.Contains(got, "550") {
		t.Errorf("failure: %q", got)
	}
}
