//go:build integration

package integration

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
)

// geminiURL is the URL of fixture p on molly-brown, which serves the
// fixture tree under /fixtures/ beside the test capsule.
func geminiURL(port int) func(p string) string {
	return func(p string) string {
		return "gemini://" + testbed.Addr(port) + "/fixtures/" + schemes.Escape(p, "?#")
	}
}

// geminiHome gives the test a configuration directory of its own, so
// that the certificates it trusts on first use are remembered there and
// not in the user's, and returns its known-hosts file.
func geminiHome(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	return filepath.Join(dir, "urlget", "gemini_known_hosts")
}

// TestConformanceGemini runs the suite against molly-brown: fixtures
// byte for byte (2x), 51 for a missing one, its directory listings (a
// text/gemini page of links) as listings.
func TestConformanceGemini(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	conformance.Run(t, conformance.Target{Name: "molly-brown", URL: geminiURL(testbed.GeminiPort), NotFoundCode: 51})
}

// geminiRun runs the urlget binary with args and returns its stdout,
// stderr and exit status.
func geminiRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(urlgetBinary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errb, strings.NewReader("")
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestGeminiCapsule retrieves the capsule's pages byte for byte, lists
// its links, searches (status 10), follows redirects within the bound,
// and gives the exit statuses of the README's table.
func TestGeminiCapsule(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	known := geminiHome(t)
	// 1965 is gemini's port, which the canonical form leaves out.
	base := "gemini://" + testbed.Host
	capsule := filepath.Join("servers", "molly-brown", "capsule")

	for _, p := range []string{"index.gmi", "about.gmi", "docs/one.txt"} {
		want, err := os.ReadFile(filepath.Join(capsule, p))
		if err != nil {
			t.Fatal(err)
		}
		out, stderr, code := geminiRun(t, base+"/"+p)
		if code != 0 || out != string(want) {
			t.Errorf("%s: exit %d %s\n%q\nwant %q", p, code, stderr, out, want)
		}
	}
	if b, err := os.ReadFile(known); err != nil || !strings.HasPrefix(strings.SplitN(string(b), "\n", 2)[1], testbed.Addr(testbed.GeminiPort)+" ") {
		t.Errorf("first use not remembered in %s: %q %v", known, b, err)
	}

	out, stderr, code := geminiRun(t, "ls", "--json", base+"/")
	var listing struct {
		Entries []struct{ Name, Title, Kind, URL, Target string }
		Type    string
	}
	if err := json.Unmarshal([]byte(out), &listing); err != nil || code != 0 {
		t.Fatalf("ls --json: exit %d %s %v\n%s", code, stderr, err, out)
	}
	var got []string
	for _, e := range listing.Entries {
		got = append(got, e.Kind+" "+e.URL+e.Target+" "+e.Title)
	}
	want := []string{
		"file " + base + "/about.gmi About this capsule",
		"dir " + base + "/docs/ Documents",
		"file " + base + "/cgi-bin/search Search (asks for input)",
		"file " + base + "/old A temporary redirect",
		"file " + base + "/moved A permanent redirect",
		"file " + base + "/missing.gmi A page that is not there",
		"link gopher://127.0.0.1:7070/ A gopher server",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || !strings.HasPrefix(listing.Type, "text/gemini") {
		t.Errorf("ls --json (type %q):\n%s\nwant:\n%s", listing.Type, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if out, stderr, code := geminiRun(t, "--search", "two words", base+"/cgi-bin/search"); code != 0 || !strings.Contains(out, "You searched for: two%20words") {
		t.Errorf("search: exit %d %s\n%s", code, stderr, out)
	}
	if out, _, code := geminiRun(t, base+"/cgi-bin/search?in%20url"); code != 0 || !strings.Contains(out, "You searched for: in%20url") {
		t.Errorf("search in the URL: exit %d\n%s", code, out)
	}
	if _, stderr, code := geminiRun(t, base+"/cgi-bin/search"); code != 2 || !strings.Contains(stderr, "--search") {
		t.Errorf("search without words: exit %d %s, want 2 naming --search", code, stderr)
	}

	about, _ := os.ReadFile(filepath.Join(capsule, "about.gmi"))
	if out, stderr, code := geminiRun(t, base+"/old"); code != 0 || out != string(about) {
		t.Errorf("redirect 30: exit %d %s\n%q", code, stderr, out)
	}
	if out, stderr, code := geminiRun(t, "ls", base+"/moved"); code != 0 || !strings.Contains(out, "one.txt") {
		t.Errorf("redirect 31 then ls: exit %d %s\n%s", code, stderr, out)
	}
	if _, stderr, code := geminiRun(t, base+"/loop-a"); code != 6 || !strings.Contains(stderr, "too many redirects") {
		t.Errorf("redirect loop: exit %d %s, want 6 (bounded)", code, stderr)
	}
	if _, stderr, code := geminiRun(t, base+"/missing.gmi"); code != 3 || !strings.Contains(stderr, "51") {
		t.Errorf("not found: exit %d %s, want 3", code, stderr)
	}
	if out, _, code := geminiRun(t, "--explain", base+"/x"); code != 0 || !strings.Contains(out, "send "+base+"/x") {
		t.Errorf("--explain: exit %d\n%s", code, out)
	}
}

// TestGeminiTrustOnFirstUse: the certificate met first is remembered and
// trusted again; a server whose certificate changed since (here: the
// second instance, with a certificate of its own, remembered under the
// first's) is refused with exit 7 and the file left as it was.
func TestGeminiTrustOnFirstUse(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	testbed.Require(t, "gemini-other")
	dir := t.TempDir()
	known := filepath.Join(dir, "known")
	first := "gemini://" + testbed.Addr(testbed.GeminiPort) + "/about.gmi"
	other := "gemini://" + testbed.Addr(testbed.GeminiOtherPort) + "/about.gmi"
	if _, stderr, code := geminiRun(t, "--gemini-known-hosts", known, first); code != 0 {
		t.Fatalf("first use: exit %d %s", code, stderr)
	}
	if _, stderr, code := geminiRun(t, "--gemini-known-hosts", known, first); code != 0 {
		t.Fatalf("second use: exit %d %s", code, stderr)
	}
	b, err := os.ReadFile(known)
	if err != nil {
		t.Fatal(err)
	}
	// The other server "was" the first one last time: its line holds the
	// first server's certificate.
	changed := strings.ReplaceAll(string(b), testbed.Addr(testbed.GeminiPort)+" ", testbed.Addr(testbed.GeminiOtherPort)+" ")
	if err := os.WriteFile(known, []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := geminiRun(t, "--gemini-known-hosts", known, other)
	if code != 7 || out != "" || !strings.Contains(stderr, "certificate changed") {
		t.Errorf("changed certificate: exit %d, stdout %q, stderr %s; want exit 7 and nothing retrieved", code, out, stderr)
	}
	if b2, _ := os.ReadFile(known); string(b2) != changed {
		t.Errorf("the refusal changed the known hosts file:\n%s", b2)
	}
	// With its own line gone it is a first use again.
	if err := os.WriteFile(known, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := geminiRun(t, "--gemini-known-hosts", known, other); code != 0 {
		t.Errorf("after forgetting it: exit %d %s", code, stderr)
	}
}

// TestGeminiMirror crawls the capsule's docs/ page: the pages it links
// to, byte for byte, placed by their URLs.
func TestGeminiMirror(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	dst := filepath.Join(t.TempDir(), "docs")
	if _, stderr, code := geminiRun(t, "mirror", "gemini://"+testbed.Host+"/docs/", dst); code != 0 {
		t.Fatalf("mirror: exit %d %s", code, stderr)
	}
	for _, name := range []string{"one.txt", "two.gmi"} {
		want, _ := os.ReadFile(filepath.Join("servers", "molly-brown", "capsule", "docs", name))
		got, err := os.ReadFile(filepath.Join(dst, name))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: %q %v, want %q", name, got, err, want)
		}
	}
}

// TestGeminiClientCertificate: molly-brown's /private/ lets in only the
// test bed's client identity: without a certificate 60 (exit 4), with
// another 61 (exit 4), with it the page.
func TestGeminiClientCertificate(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	page := "gemini://" + testbed.Host + "/private/secret.gmi"
	if _, stderr, code := geminiRun(t, page); code != 4 || !strings.Contains(stderr, "60 ") || !strings.Contains(stderr, "-E FILE") {
		t.Errorf("without a certificate: exit %d %s, want 4 (60) naming -E (--cert)", code, stderr)
	}
	// Another identity: the 1965 server's own certificate is public, its
	// key is not, so make one here.
	other := filepath.Join(t.TempDir(), "other.pem")
	if out, err := exec.Command("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=other",
		"-keyout", other, "-out", other+".crt").CombinedOutput(); err != nil {
		t.Fatalf("openssl: %v %s", err, out)
	}
	crt, _ := os.ReadFile(other + ".crt")
	f, _ := os.OpenFile(other, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(crt)
	f.Close()
	if _, stderr, code := geminiRun(t, "--cert", other, page); code != 4 || !strings.Contains(stderr, "61 ") {
		t.Errorf("another certificate: exit %d %s, want 4 (61)", code, stderr)
	}
	want, _ := os.ReadFile(filepath.Join("servers", "molly-brown", "capsule", "private", "secret.gmi"))
	out, stderr, code := geminiRun(t, "--cert", filepath.Join(testbed.LogDir(testbed.Gemini), "client.pem"), page)
	if code != 0 || out != string(want) {
		t.Errorf("the test client: exit %d %s\n%q, want %q", code, stderr, out, want)
	}
}

// TestGeminiMirrorDelete crawls the capsule's root with --delete: the
// search page (status 10) is skipped, neither a file nor a failure, and
// the file here by its name is kept; the page that is not there (51) is
// a failure (exit 3), and its file here is kept too, as the listing
// names it; a file no page names goes.
func TestGeminiMirrorDelete(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	dst := t.TempDir()
	local := map[string]string{"cgi-bin/search": "mine\n", "missing.gmi": "old\n", "stale.gmi": "stale\n"}
	for p, data := range local {
		os.MkdirAll(filepath.Dir(filepath.Join(dst, p)), 0o755)
		if err := os.WriteFile(filepath.Join(dst, p), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, code := geminiRun(t, "mirror", "--delete", "--json", "gemini://"+testbed.Host+"/", dst)
	if code != 3 {
		t.Errorf("mirror --delete: exit %d %s, want 3 (the 51)\n%s", code, stderr, out)
	}
	var skipped, failed []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct{ Event, Path, Reason string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch {
		case ev.Event == "skip" && strings.HasPrefix(ev.Reason, "the server asks for input"):
			skipped = append(skipped, ev.Path)
		case ev.Event == "error":
			failed = append(failed, ev.Path)
		}
	}
	if strings.Join(skipped, " ") != "cgi-bin/search" || strings.Join(failed, " ") != "missing.gmi" {
		t.Errorf("skipped as asking %q, failed %q; want cgi-bin/search and missing.gmi\n%s", skipped, failed, out)
	}
	for p, data := range local {
		b, err := os.ReadFile(filepath.Join(dst, p))
		switch {
		case p == "stale.gmi" && !os.IsNotExist(err):
			t.Errorf("%s kept: %v", p, err)
		case p != "stale.gmi" && string(b) != data:
			t.Errorf("%s holds %q %v, want %q kept", p, b, err, data)
		}
	}
	about, _ := os.ReadFile(filepath.Join("servers", "molly-brown", "capsule", "about.gmi"))
	if b, _ := os.ReadFile(filepath.Join(dst, "about.gmi")); string(b) != string(about) {
		t.Errorf("about.gmi: %q", b)
	}
}
