package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestNetrcFlags: curl's three flags. --netrc (-n) reads ~/.netrc and
// fails when it cannot; --netrc-optional skips a missing file (and says
// why it skips an unreadable one); --netrc-file names the file, read as
// either of them says. Without them nothing is read.
func TestNetrcFlags(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	write := func(name, text string) string {
		if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return name
	}
	write(filepath.Join(home, ".netrc"), "machine h login fromhome password p\n")
	other := write(filepath.Join(dir, "other"), "machine h login fromfile password p\n")
	broken := write(filepath.Join(dir, "broken"), "machine h login x password \"open\n")
	missing := filepath.Join(dir, "missing")
	tests := []struct {
		name  string
		args  []string
		login string // "" : no netrc
		err   string // what the usage error says
		note  string // what the note says
	}{
		{"no flag reads nothing", nil, "", "", ""},
		{"--netrc", []string{"--netrc"}, "fromhome", "", ""},
		{"-n", []string{"-n"}, "fromhome", "", ""},
		{"--netrc-optional", []string{"--netrc-optional"}, "fromhome", "", ""},
		{"--netrc-file", []string{"--netrc-file", other}, "fromfile", "", ""},
		{"--netrc-file missing", []string{"--netrc-file", missing}, "", "--netrc-file", ""},
		{"--netrc-file broken", []string{"--netrc-file", broken}, "", "not closed", ""},
		{"--netrc-file missing, optional", []string{"--netrc-optional", "--netrc-file", missing}, "", "", ""},
		{"--netrc-file broken, optional", []string{"--netrc-optional", "--netrc-file", broken}, "", "", "not closed"},
		{"both --netrc and --netrc-optional", []string{"--netrc", "--netrc-optional"}, "", "give one of them", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parseFlags(append(tc.args, "http://h/"), strings.NewReader(""), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var notes []string
			n, err := o.netrc.load(func(s string) { notes = append(notes, s) })
			if tc.err != "" {
				if schemes.KindOf(err) != schemes.KindUsage || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want a usage error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			login, _, _ := n.Lookup("h")
			if login != tc.login || (tc.note == "") != (len(notes) == 0) ||
				(tc.note != "" && !strings.Contains(notes[0], tc.note)) {
				t.Errorf("login %q, notes %q; want %q and a note with %q", login, notes, tc.login, tc.note)
			}
		})
	}
	// ~/.netrc missing: an error for --netrc, nothing for --netrc-optional.
	t.Setenv("HOME", dir)
	for _, flag := range []string{"--netrc", "--netrc-optional"} {
		o, err := parseFlags([]string{flag, "http://h/"}, strings.NewReader(""), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		n, err := o.netrc.load(func(string) {})
		if flag == "--netrc" && (schemes.KindOf(err) != schemes.KindUsage || !strings.Contains(err.Error(), ".netrc")) {
			t.Errorf("%s without ~/.netrc: %v, want a usage error naming it", flag, err)
		}
		if flag == "--netrc-optional" && (err != nil || n != nil) {
			t.Errorf("%s without ~/.netrc: %v, %v", flag, n, err)
		}
	}
}

// TestNetrcOnlyForTheHostGiven runs the command against a server that
// redirects to itself under another name (localhost): the netrc's login
// goes to the host of the URL given only, as -u's does, unless
// --location-trusted; -u and the URL's own login come first; and without
// a netrc flag ~/.netrc is not read.
func TestNetrcOnlyForTheHostGiven(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		host, _, _ := strings.Cut(r.Host, ":")
		mu.Lock()
		seen = append(seen, host+"="+map[bool]string{true: u + ":" + p, false: "none"}[ok])
		mu.Unlock()
		if r.URL.Path == "/go-other" {
			http.Redirect(w, r, "http://localhost:"+strings.Split(r.Host, ":")[1]+"/end", http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	home := t.TempDir()
	t.Setenv("HOME", home)
	netrc := "machine 127.0.0.1 login nina password n1na\nmachine localhost login lh password lhpw\n"
	if err := os.WriteFile(filepath.Join(home, ".netrc"), []byte(netrc), 0o600); err != nil {
		t.Fatal(err)
	}
	withUser := strings.Replace(srv.URL, "http://", "http://u:up@", 1)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"netrc, then the redirect's host gets nothing", []string{"--netrc", srv.URL + "/go-other"}, "127.0.0.1=nina:n1na localhost=none"},
		{"location-trusted: the netrc's entry for that host", []string{"--netrc", "--location-trusted", srv.URL + "/go-other"},
			"127.0.0.1=nina:n1na localhost=lh:lhpw"},
		{"-u before netrc", []string{"--netrc", "-u", "me:pw", srv.URL + "/end"}, "127.0.0.1=me:pw"},
		{"the URL's login before both", []string{"--netrc", "-u", "me:pw", withUser + "/end"}, "127.0.0.1=u:up"},
		{"no flag, no netrc", []string{srv.URL + "/end"}, "127.0.0.1=none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			_, stderr, code := urlget(t, "", append([]string{"-v"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			mu.Lock()
			got := strings.Join(seen, " ")
			mu.Unlock()
			if got != tc.want {
				t.Errorf("server saw %s; want %s", got, tc.want)
			}
			for _, pw := range []string{"n1na", "lhpw"} {
				if strings.Contains(stderr, pw) {
					t.Errorf("-v shows a netrc password:\n%s", stderr)
				}
			}
		})
	}
}

// TestSSLReqdIsPolicy: --ssl-reqd refuses a scheme that cannot use TLS
// before connecting (exit 7), and reaches the handlers of those that can
// through the request: their plans upgrade.
func TestSSLReqdIsPolicy(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	_, stderr, code := urlget(t, "", "--ssl-reqd", srv.URL+"/")
	if code != 7 || !strings.Contains(stderr, "--ssl-reqd") || !strings.Contains(stderr, "https") || hits.Load() != 0 {
		t.Errorf("http: exit %d, %d requests, stderr %q; want exit 7 before any request, naming https", code, hits.Load(), stderr)
	}
	for _, tc := range []struct{ url, want string }{
		{"ftp://h.invalid/f", "AUTH TLS"},
		{"nntp://h.invalid/comp.lang.go", "STARTTLS (required: --ssl-reqd)"},
		{"mailto:joe@example.com?body=x", "STARTTLS (required: --ssl-reqd)"},
	} {
		stdout, stderr, code := urlget(t, "", "--explain", "--ssl-reqd", "--smtp-server", "mail.invalid", tc.url)
		if code != 0 || !strings.Contains(stdout, tc.want) {
			t.Errorf("%s: exit %d, plan %q (%s); want %q", tc.url, code, stdout, stderr, tc.want)
		}
	}
}
