//go:build integration

package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/ftp"
	"github.com/urlget/urlget/transport"

	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
)

// ftpServers are the three FTP servers of the test bed.
var ftpServers = []struct {
	service string
	port    int
}{
	{testbed.Vsftpd, testbed.VsftpdPort},
	{testbed.Proftpd, testbed.ProftpdPort},
	{testbed.Pureftpd, testbed.PureftpdPort},
}

// aliceFixtureURL is the URL of fixture p through alice's login: her
// login directory is her home, so the fixture tree (the anonymous root) is
// reached by its absolute path, /srv/fixtures in every FTP container.
func aliceFixtureURL(scheme string, port int) func(string) string {
	return func(p string) string {
		return fmt.Sprintf("%s://%s:%s@%s/%%2Fsrv/fixtures/%s", scheme, testbed.AliceUser, testbed.AlicePassword,
			testbed.Addr(port), escapePath(p))
	}
}

// TestConformanceFTP runs the suite against vsftpd, proftpd and pure-ftpd:
// anonymous URLs on the fixture root, and alice's login on the same tree
// for the secret checks.
func TestConformanceFTP(t *testing.T) {
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			conformance.Run(t, conformance.Target{
				Name:         s.service,
				URL:          base("ftp", "", s.port),
				SecretURL:    aliceFixtureURL("ftp", s.port),
				Secret:       testbed.AlicePassword,
				NotFoundCode: 550,
			})
		})
	}
}

// TestConformanceFTPS runs the suite over implicit FTPS (ftps://) against
// vsftpd, which requires TLS for logins and data and requires every data
// connection to resume the control connection's TLS session; the server
// is verified with the certificate it published.
func TestConformanceFTPS(t *testing.T) {
	testbed.Require(t, testbed.VsftpdFTPS)
	conformance.Run(t, conformance.Target{
		Name:         testbed.VsftpdFTPS,
		URL:          base("ftps", "", testbed.VsftpdFTPSPort),
		SecretURL:    aliceFixtureURL("ftps", testbed.VsftpdFTPSPort),
		Secret:       testbed.AlicePassword,
		NotFoundCode: 550,
		TLS:          &conformance.TLSConfig{CAFile: testbed.FTPSCertFile(testbed.VsftpdFTPS)},
	})
}

// ftpCommands extracts the commands a server received from this test
// process's connections (testbed.ClientIP: the tests' clients dial from
// it) in the part of its protocol log written since offset, in one form
// for all three servers: the command line as sent, with any password
// shown as "****". Another process's sessions logged meanwhile are left
// out (CI run 21 counted a helper's pure-ftpd sessions as its own).
func ftpCommands(t *testing.T, service string, offset int64) []string {
	t.Helper()
	return ftpCommandsFrom(t, service, offset, testbed.ClientIP.String())
}

// ftpCommandsFrom is ftpCommands for the connections from the address
// from, or from any address when from is "" (a server reached through a
// proxy, which dials it from the proxy's own).
func ftpCommandsFrom(t *testing.T, service string, offset int64, from string) []string {
	t.Helper()
	b, err := testbed.ReadProtocolLogSince(service, offset)
	if err != nil {
		t.Fatal(err)
	}
	// Each: the client's address, then the command (pure-ftpd: its verb
	// and argument apart).
	var re *regexp.Regexp
	switch service {
	case testbed.Vsftpd, testbed.VsftpdFTPS:
		re = regexp.MustCompile(`FTP command: Client "([^"]*)", "(.*)"$`)
	case testbed.Proftpd:
		re = regexp.MustCompile(`^\S+ \S+ (\S+) \S+ "(.*)" \S+$`)
	case testbed.Pureftpd:
		re = regexp.MustCompile(`\(\S*@([^)]*)\) \[DEBUG\] Command \[(\w+)\] \[(.*)\]$`)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		m := re.FindStringSubmatch(l)
		if m == nil || from != "" && m[1] != from {
			continue
		}
		cmd := m[2]
		if service == testbed.Pureftpd {
			cmd = strings.ToUpper(m[2])
			if m[3] != "" {
				cmd += " " + m[3]
			}
		}
		if strings.HasPrefix(strings.ToUpper(cmd), "PASS") {
			cmd = "PASS ****"
		}
		out = append(out, cmd)
	}
	return out
}

// normalize makes an expected sequence comparable with a server's log: no
// server logs the space of a command with a null argument ("CWD " is
// logged "CWD"); the test checks the client's trace for it instead.
func normalize(service string, cmds []string) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = strings.TrimRight(c, " ")
	}
	return out
}

// emptySegment is the sequence for alice's ftp://h//sub/note.txt on
// service.
func emptySegment(service string) []string {
	if service == testbed.Pureftpd {
		return seq(aliceLogin, []string{"CWD ", "CWD sub", "SYST", "TYPE I", "SIZE note.txt", "EPSV", "RETR note.txt", "QUIT"})
	}
	// CWD sub and SYST went with "CWD " (pipelined): their replies are
	// read and discarded, the session kept where CWD sub led.
	return seq(aliceLogin, []string{"CWD ", "CWD sub", "SYST", "QUIT"})
}

// ftpRun fetches urls in order with one client (so they share a control
// connection), closes it, and returns the bodies, the errors and what the
// server logged meanwhile. A listing's body is its entries' names, one a
// line.
func ftpRun(t *testing.T, service string, urls ...string) (bodies []string, errs []error, cmds []string, trace string) {
	t.Helper()
	off := testbed.LogSize(service)
	out := &strings.Builder{}
	var mu sync.Mutex
	h := &ftp.Handler{AnonPassword: ftpAnonPassword}
	c := &fetch.Client{
		Registry: mustRegistry(fetch.Config{Override: ftp.Schemes(h)}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second, LocalIP: testbed.ClientIP},
		Trace:    transport.NewTrace(lockedWriter{&mu, out}),
	}
	for _, u := range urls {
		resp, err := c.Get(context.Background(), u)
		body := ""
		switch {
		case err == nil && resp.Listing != nil:
			ents, lerr := schemes.ReadAll(resp.Listing)
			var b strings.Builder
			for _, e := range ents {
				b.WriteString(e.Label() + "\n")
			}
			body, err = b.String(), lerr
		case err == nil:
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			body, err = string(b), rerr
		}
		bodies, errs = append(bodies, body), append(errs, err)
	}
	c.CloseIdleConnections()
	// The servers write their logs on their own time (pure-ftpd through
	// syslog): wait, bounded, for the QUIT that ends the session.
	await.Poll(func() bool {
		cmds = ftpCommands(t, service, off)
		return len(cmds) > 0 && cmds[len(cmds)-1] == "QUIT"
	})
	// A session of the test before (its pooled connection's QUIT, sent
	// without waiting) may be logged after the offset was taken: a QUIT
	// before any command of ours is not ours (CI at c70bb6d: proftpd).
	for len(cmds) > 0 && cmds[0] == "QUIT" {
		cmds = cmds[1:]
	}
	mu.Lock()
	defer mu.Unlock()
	return bodies, errs, cmds, out.String()
}

const ftpAnonPassword = "urlget-test@example.org"

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// anonLogin is what each server sees of an anonymous login: vsftpd
// (no_anon_password) and pure-ftpd accept USER anonymous with 230 and are
// sent no PASS; proftpd asks for the mail address (331).
func anonLogin(service string) []string {
	if service == testbed.Proftpd {
		return []string{"USER anonymous", "PASS ****", "PWD"}
	}
	return []string{"USER anonymous", "PWD"}
}

var aliceLogin = []string{"USER alice", "PASS ****", "PWD"}

func seq(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestFTPCommandSequences checks, in each server's own protocol log, that
// the client sends exactly the commands RFC 1738 §3.2 derives from a URL.
func TestFTPCommandSequences(t *testing.T) {
	crlf := fixtureText(t, "text/crlf.txt")
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			anon := func(p string) string { return fmt.Sprintf("ftp://%s/%s", testbed.Addr(s.port), p) }
			alice := func(p string) string {
				return fmt.Sprintf("ftp://alice:secret@%s/%s", testbed.Addr(s.port), p)
			}
			cases := []struct {
				name  string
				urls  []string
				want  []string
				check func(t *testing.T, bodies []string, errs []error)
			}{
				{"absolute %2F", []string{alice("%2Fetc/hostname")},
					seq(aliceLogin, []string{"CWD /etc", "TYPE I", "SIZE hostname", "EPSV", "RETR hostname", "QUIT"}),
					func(t *testing.T, b []string, e []error) { noErr(t, e) }},
				{"relative to the login directory", []string{alice("sub/note.txt"), alice("README.txt")},
					// Back to the login directory for the second URL (RFC 1738
					// §3.2.5), TYPE only when it changes, MDTM only for -R or a
					// resume (issue 12: fewer commands per file). The text-looking
					// names ask SYST once: a UNIX server, so TYPE I (issue 23);
					// SIZE until the 150 reply has shown it tells the size.
					seq(aliceLogin, []string{"CWD sub", "SYST", "TYPE I", "SIZE note.txt", "EPSV", "RETR note.txt",
						"CWD " + testbed.AliceHome},
						map[string][]string{testbed.Pureftpd: {"SIZE README.txt"}}[s.service],
						[]string{"EPSV", "RETR README.txt", "QUIT"}),
					func(t *testing.T, b []string, e []error) {
						noErr(t, e)
						if b[0] != testbed.AliceSubNote || b[1] != testbed.AliceReadme {
							t.Errorf("bodies %q", b)
						}
					}},
				// RFC 1738's "//etc/motd": a CWD with a null argument first. What
				// it means is the server's business: vsftpd (550) and proftpd
				// (501) refuse it, pure-ftpd stays in the login directory.
				{"empty segment", []string{alice("/sub/note.txt")}, emptySegment(s.service),
					func(t *testing.T, b []string, e []error) {
						if s.service == testbed.Pureftpd {
							noErr(t, e)
							if b[0] != testbed.AliceSubNote {
								t.Errorf("body %q", b[0])
							}
							return
						}
						want := map[string]int{testbed.Vsftpd: 550, testbed.Proftpd: 501}[s.service]
						var se *schemes.Error
						if !errors.As(e[0], &se) || se.Code != want || se.Phase != "cwd" {
							t.Errorf("err %v, want the server's %d to CWD", e[0], want)
						}
						// The error says what "//" means and how to write
						// the path from the server's root.
						if hint := "/%2Fsub/note.txt"; !strings.Contains(e[0].Error(), `empty segment ("//")`) ||
							!strings.Contains(e[0].Error(), hint) {
							t.Errorf("err %v, want the empty segment explained and %q", e[0], hint)
						}
					}},
				// A directory named without its "/": RETR fails, one CWD
				// tells it is a directory, and the error says to add "/".
				{"directory without its /", []string{anon("names")},
					seq(anonLogin(s.service), []string{"TYPE I", "SIZE names", "EPSV", "RETR names", "CWD names", "QUIT"}),
					func(t *testing.T, b []string, e []error) {
						if schemes.KindOf(e[0]) != schemes.KindUsage || !strings.Contains(e[0].Error(), `add "/" to list it`) {
							t.Errorf("err %v, want a usage error that says to add \"/\"", e[0])
						}
					}},
				// Binary files in one directory: the second sends SIZE only
				// where the 150 reply does not tell the size (pure-ftpd).
				{"binary files, one directory", []string{anon("bin/SHA256SUMS"), anon("bin/small.bin")},
					seq(anonLogin(s.service), []string{"CWD bin", "TYPE I", "SIZE SHA256SUMS", "EPSV", "RETR SHA256SUMS"},
						map[string][]string{testbed.Pureftpd: {"SIZE small.bin"}}[s.service],
						[]string{"EPSV", "RETR small.bin", "QUIT"}),
					func(t *testing.T, b []string, e []error) {
						noErr(t, e)
						if !strings.Contains(b[0], "small.bin") || b[1] != testbed.FixtureFiles["bin/small.bin"] {
							t.Errorf("bodies %q", b)
						}
					}},
				{"type=d without name", []string{anon("names/;type=d")},
					seq(anonLogin(s.service), []string{"CWD names", "TYPE A", "EPSV", "NLST", "QUIT"}),
					func(t *testing.T, b []string, e []error) {
						noErr(t, e)
						if !strings.Contains(b[0], "semi;colon.txt\n") {
							t.Errorf("NLST names %q", b[0])
						}
					}},
				{"type=d with name", []string{anon("names;type=d")},
					seq(anonLogin(s.service), []string{"TYPE A", "EPSV", "NLST names", "QUIT"}),
					func(t *testing.T, b []string, e []error) { noErr(t, e) }},
				{"type=a on CRLF text", []string{anon("text/crlf.txt;type=a")},
					seq(anonLogin(s.service), []string{"CWD text", "TYPE A", "EPSV", "RETR crlf.txt", "QUIT"}),
					func(t *testing.T, b []string, e []error) {
						noErr(t, e)
						// vsftpd (ascii_download_enable=NO) and proftpd send
						// the file's CRLF as they are; the client makes them
						// LF. pure-ftpd converts every LF to CRLF on the wire,
						// so the client gets the file's own bytes back.
						want := strings.ReplaceAll(crlf, "\r\n", "\n")
						if s.service == testbed.Pureftpd {
							want = crlf
						}
						if b[0] != want {
							t.Errorf("got %q, want %q", b[0], want)
						}
					}},
				{"%3B and %23 in names, one connection", []string{anon("names/semi%3Bcolon.txt"), anon("names/hash%23mark.txt")},
					// The same directory again: no CWD back and forth.
					seq(anonLogin(s.service), []string{"CWD names", "SYST", "TYPE I", "SIZE semi;colon.txt", "EPSV",
						"RETR semi;colon.txt"}, map[string][]string{testbed.Pureftpd: {"SIZE hash#mark.txt"}}[s.service],
						[]string{"EPSV", "RETR hash#mark.txt", "QUIT"}),
					func(t *testing.T, b []string, e []error) {
						noErr(t, e)
						if b[0] != testbed.FixtureFiles["names/semi;colon.txt"] || b[1] != testbed.FixtureFiles["names/hash#mark.txt"] {
							t.Errorf("bodies %q", b)
						}
					}},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					bodies, errs, cmds, trace := ftpRun(t, s.service, tc.urls...)
					if want := normalize(s.service, tc.want); !slices.Equal(cmds, want) {
						t.Errorf("%s logged\n  %q\nwant\n  %q\nerrors %v\ntrace:\n%s", s.service, cmds, want, errs, trace)
					}
					if tc.name == "empty segment" && !strings.Contains(trace, "> CWD \n") {
						t.Errorf("no CWD with a null argument in the trace:\n%s", trace)
					}
					if strings.Contains(trace, "secret") || strings.Contains(trace, ftpAnonPassword) {
						t.Errorf("a password in the trace:\n%s", trace)
					}
					if tc.check != nil {
						tc.check(t, bodies, errs)
					}
					t.Logf("%s: %q", s.service, cmds)
				})
			}
		})
	}
}

// TestFTPGuessedTextIsCurls: a text-looking name without ";type=" from a
// UNIX server (SYST) is fetched in TYPE I, so its bytes are curl's for the
// same URL, CRLF line ends included (issue 23); the trace says who chose.
func TestFTPGuessedTextIsCurls(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("no curl")
	}
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			// urlget's runs first, each counting the commands its own
			// session leaves in the server's log; curl's afterwards, so
			// that no line of a curl session written late (pure-ftpd
			// logs through syslog) is counted as urlget's.
			paths := []string{"text/crlf.txt", "README.txt"}
			got := map[string]string{}
			for _, p := range paths {
				u := fmt.Sprintf("ftp://%s/%s", testbed.Addr(s.port), p)
				bodies, errs, cmds, trace := ftpRun(t, s.service, u)
				noErr(t, errs)
				got[p] = bodies[0]
				if count(cmds, "SYST") != 1 || count(cmds, "TYPE I") != 1 || count(cmds, "TYPE A") != 0 {
					t.Errorf("%s: %q, want one SYST, then TYPE I", p, cmds)
				}
				if !strings.Contains(trace, "no ;type=: the server is UNIX (SYST), so TYPE I: the exact bytes") {
					t.Errorf("%s: the trace does not say why TYPE I:\n%s", p, trace)
				}
			}
			for _, p := range paths {
				u := fmt.Sprintf("ftp://%s/%s", testbed.Addr(s.port), p)
				want, err := exec.Command(curl, "-sS", "--max-time", "20", u).Output()
				if err != nil {
					t.Fatalf("curl %s: %v", u, err)
				}
				if got[p] != string(want) {
					t.Errorf("%s: urlget got %q, curl %q", p, got[p], want)
				}
			}
		})
	}
}

// TestFTPAnonymousPassword checks the password of an anonymous login: the
// one server that asks for it (proftpd) records it in its anon.log.
func TestFTPAnonymousPassword(t *testing.T) {
	testbed.Require(t, testbed.Proftpd)
	logf := filepath.Join(testbed.LogDir(testbed.Proftpd), "anon.log")
	before, _ := os.ReadFile(logf)
	_, errs, cmds, _ := ftpRun(t, testbed.Proftpd, fmt.Sprintf("ftp://%s/README.txt", testbed.Addr(testbed.ProftpdPort)))
	noErr(t, errs)
	if !slices.Equal(cmds[:2], []string{"USER anonymous", "PASS ****"}) {
		t.Errorf("commands %q", cmds)
	}
	after, _ := os.ReadFile(logf)
	if got := string(after[min(len(before), len(after)):]); !strings.Contains(got, "ftp "+ftpAnonPassword) {
		t.Errorf("anon.log since the test: %q, want the password %q", got, ftpAnonPassword)
	}
}

func noErr(t *testing.T, errs []error) {
	t.Helper()
	for _, e := range errs {
		if e != nil {
			t.Error(e)
		}
	}
}

func fixtureText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testbed.FixtureDir(), p))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFTPExplicitTLS retrieves a file and a listing from pure-ftpd over
// explicit FTPS (AUTH TLS, PBSZ 0, PROT P, TLS data connections), asked
// by the handler's --ftp-ssl or by the Client's --ssl-reqd (the policy,
// which reaches the handler on the Request), verifying the server's
// certificate, and checks the commands in its log.
func TestFTPExplicitTLS(t *testing.T) {
	for _, tc := range []struct {
		flag       string
		h          *ftp.Handler
		requireTLS bool
	}{
		{"--ftp-ssl", &ftp.Handler{ExplicitTLS: true}, false},
		{"--ssl-reqd", &ftp.Handler{}, true},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			cmds := ftpsSession(t, testbed.Pureftpd, testbed.PureftpdPort, "ftp", tc.h, tc.requireTLS)
			want := []string{"AUTH TLS", "USER anonymous", "PBSZ 0", "PROT P", "PWD", "SYST", "TYPE I", "SIZE README.txt",
				"EPSV", "RETR README.txt", "CWD names", "FEAT", "TYPE A", "EPSV", "MLSD", "QUIT"}
			if !slices.Equal(cmds, want) {
				t.Errorf("pure-ftpd logged\n  %q\nwant\n  %q", cmds, want)
			}
		})
	}
}

// TestFTPImplicitTLS does the same over implicit FTPS (ftps://) against
// vsftpd: TLS from the first byte, so no AUTH TLS; PBSZ 0 and PROT P after
// login; every data connection resumes the control connection's TLS
// session, which this server requires.
func TestFTPImplicitTLS(t *testing.T) {
	cmds := ftpsSession(t, testbed.VsftpdFTPS, testbed.VsftpdFTPSPort, "ftps", &ftp.Handler{}, false)
	want := []string{"USER anonymous", "PBSZ 0", "PROT P", "PWD", "SYST", "TYPE I", "SIZE README.txt", "EPSV",
		"RETR README.txt", "CWD names", "FEAT", "TYPE A", "EPSV", "LIST -a", "QUIT"}
	if !slices.Equal(cmds, want) {
		t.Errorf("vsftpd logged\n  %q\nwant\n  %q", cmds, want)
	}
}

// ftpsSession fetches README.txt and the names/ listing anonymously over
// one TLS control connection to service, verifying the server with the
// certificate it published, and returns the commands the server logged.
// requireTLS is the Client's --ssl-reqd.
func ftpsSession(t *testing.T, service string, port int, scheme string, h *ftp.Handler, requireTLS bool) []string {
	t.Helper()
	testbed.Require(t, service)
	cfg, err := transport.TLSConfig(testbed.FTPSCertFile(service), false, "")
	if err != nil {
		t.Fatal(err)
	}
	off := testbed.LogSize(service)
	c := &fetch.Client{
		Registry:   mustRegistry(fetch.Config{Override: ftp.Schemes(h)}),
		Dialer:     &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second, LocalIP: testbed.ClientIP},
		TLS:        cfg,
		RequireTLS: requireTLS,
	}
	resp, err := c.Get(context.Background(), fmt.Sprintf("%s://%s/README.txt", scheme, testbed.Addr(port)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != fixtureText(t, "README.txt") {
		t.Fatalf("got %q, %v", b, err)
	}
	resp, err = c.List(context.Background(), fmt.Sprintf("%s://%s/names/", scheme, testbed.Addr(port)))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(entries) < 6 {
		t.Errorf("listing over TLS: %v, %v", entries, err)
	}
	c.CloseIdleConnections()
	// The server logs on its own time: until the session's QUIT, bounded.
	var cmds []string
	await.Poll(func() bool {
		cmds = ftpCommands(t, service, off)
		return len(cmds) > 0 && cmds[len(cmds)-1] == "QUIT"
	})
	return cmds
}
