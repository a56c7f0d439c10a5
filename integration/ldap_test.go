//go:build integration

package integration

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
)

// ldapURL is an LDAP URL of the test bed's slapd.
func ldapURL(rest string) string { return "ldap://" + testbed.Addr(testbed.LDAPPort) + "/" + rest }

// ldapsearch runs OpenLDAP's ldapsearch -LLL against the test bed's
// slapd with args (-b base -s scope filter attributes...) and returns
// its output: the reference urlget's LDIF is compared with, byte for
// byte. It asks for pages as urlget does (-E pr=500/noprompt): slapd
// returns a paged search's entries in another order than an unpaged
// one's, and the "# pagedresults" comment after each page, which -LLL
// still prints, is cut.
func ldapsearch(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full := append([]string{"-x", "-LLL", "-o", "nettimeout=30", "-E", "pr=500/noprompt",
		"-H", "ldap://" + testbed.Addr(testbed.LDAPPort)}, args...)
	cmd := exec.CommandContext(ctx, "ldapsearch", full...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ldapsearch %q: %v\n%s", args, err, stderr.String())
	}
	var kept []byte
	for _, line := range bytes.SplitAfter(out, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("# pagedresults:")) {
			kept = append(kept, line...)
		}
	}
	return kept
}

// ldifEntries counts the entries of LDIF text.
func ldifEntries(b []byte) int {
	n := bytes.Count(b, []byte("\ndn:"))
	if bytes.HasPrefix(b, []byte("dn:")) {
		n++
	}
	return n
}

// TestConformanceLDAP runs the query suite against slapd: a team's
// entries (as ldapsearch prints them), and the 10,000-entry bench
// subtree for the cancellations mid-reply.
func TestConformanceLDAP(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	team := "ou=team1,ou=dept1," + testbed.LDAPSuffix
	conformance.RunQueries(t, conformance.QueryTarget{
		Name:   "slapd",
		URL:    ldapURL(team + "??one"),
		Reply:  ldapsearch(t, "-b", team, "-s", "one"),
		BigURL: ldapURL(testbed.LDAPBenchDN + "??one"),
	})
}

// TestLDAPMatchesLdapsearch: urlget's LDIF is ldapsearch -LLL's, byte
// for byte, for scopes, filters and attribute lists, on entries with
// binary values (jpegPhoto, base64 and folded), UTF-8 names (base64 DNs
// and values), long values (folded) and a value with a leading space.
func TestLDAPMatchesLdapsearch(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	s := testbed.LDAPSuffix
	for _, tc := range []struct {
		url  string
		args []string
		n    int // entries; -1: whatever ldapsearch counts, at least one
	}{
		{s, []string{"-b", s, "-s", "base"}, 1},
		{"ou=dept1," + s + "??one", []string{"-b", "ou=dept1," + s, "-s", "one"}, 4},
		{"ou=dept2," + s + "??sub", []string{"-b", "ou=dept2," + s, "-s", "sub"}, 1 + 4 + 60},
		// The suffix, cn=reader, ou=bench, the departments, teams and
		// people, ou=referrals and cn=here, the bench; and the reference
		// of ou=elsewhere, which is no entry.
		{s + "??sub", []string{"-b", s, "-s", "sub"}, 1 + 1 + 1 + 4 + 16 + 240 + 2 + testbed.LDAPBenchEntries},
		{s + "?cn,jpegPhoto?sub?(jpegPhoto=*)", []string{"-b", s, "-s", "sub", "(jpegPhoto=*)", "cn", "jpegPhoto"}, 240 / 7},
		{s + "??sub?(cn=Zo%C3%AB*)", []string{"-b", s, "-s", "sub", "(cn=Zoë*)"}, 240 / 5},
		{s + "?description?sub?(description=*)", []string{"-b", s, "-s", "sub", "(description=*)", "description"}, -1},
		{s + "?mail?sub?(%26(objectClass=inetOrgPerson)(uid=p1*))", []string{"-b", s, "-s", "sub", "(&(objectClass=inetOrgPerson)(uid=p1*))", "mail"}, -1},
		{s + "?1.1?sub?(uid=b0000*)", []string{"-b", s, "-s", "sub", "(uid=b0000*)", "1.1"}, 9},
		{testbed.LDAPBenchDN + "??one", []string{"-b", testbed.LDAPBenchDN, "-s", "one"}, testbed.LDAPBenchEntries},
	} {
		want := ldapsearch(t, tc.args...)
		out, code := runURLGetOutput(t, t.TempDir(), ldapURL(tc.url))
		if code != 0 || out != string(want) {
			t.Errorf("%s: exit %d, %d bytes (%d entries); want 0 and ldapsearch's %d bytes (%d entries)",
				tc.url, code, len(out), ldifEntries([]byte(out)), len(want), ldifEntries(want))
			continue
		}
		if n := ldifEntries(want); (tc.n >= 0 && n != tc.n) || n == 0 {
			t.Errorf("%s: %d entries, want %d", tc.url, n, tc.n)
		}
	}
	// The kinds of value the fixture holds all showed up.
	all := ldapsearch(t, "-b", s, "-s", "sub", "(!(ou=bench))")
	for _, line := range []string{"\njpegPhoto:: ", "\ndn:: ", "\ncn:: ", "\ndescription:: IGxlYWRpbmcgc3BhY2U=\n", "\ndescription: word0 word1 "} {
		if !bytes.Contains(all, []byte(line)) {
			t.Errorf("the fixture's LDIF has no %q", line)
		}
	}
	if i := bytes.Index(all, []byte("\ndescription: word0")); i < 0 || !bytes.HasPrefix(all[i+1+78:], []byte("\n ")) {
		t.Error("the long description is not folded after 78 bytes")
	}
}

// TestLDAPBind: a simple bind with -u (a DN and password), or with the
// bindname extension's DN and -u's password, sees userPassword, which an
// anonymous search does not; a wrong password exits 4, a base object
// that is not there 3, an unknown critical extension 2 (naming it).
func TestLDAPBind(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	dn := testbed.LDAPBindDN
	anon, code := runURLGetOutput(t, t.TempDir(), ldapURL(dn))
	if code != 0 || strings.Contains(anon, "userPassword") || !strings.Contains(anon, "cn: reader\n") {
		t.Errorf("anonymous: exit %d\n%s", code, anon)
	}
	wantPw := "userPassword:: " + b64(testbed.LDAPBindPassword) + "\n"
	bound, code := runURLGetOutput(t, t.TempDir(), "-u", dn+":"+testbed.LDAPBindPassword, ldapURL(dn))
	if code != 0 || !strings.Contains(bound, wantPw) {
		t.Errorf("-u: exit %d\n%s", code, bound)
	}
	named, code := runURLGetOutput(t, t.TempDir(), "-u", "x:"+testbed.LDAPBindPassword,
		ldapURL(dn+"????bindname="+strings.ReplaceAll(dn, ",", "%2C")))
	if code != 0 || !strings.Contains(named, wantPw) {
		t.Errorf("bindname: exit %d\n%s", code, named)
	}
	// A netrc entry for the host binds as its login, a DN.
	netrc := filepath.Join(t.TempDir(), "netrc")
	entry := "machine " + testbed.Host + " login " + dn + " password " + testbed.LDAPBindPassword + "\n"
	if err := os.WriteFile(netrc, []byte(entry), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, code := runURLGetOutput(t, t.TempDir(), "--netrc-file", netrc, ldapURL(dn)); code != 0 || !strings.Contains(out, wantPw) {
		t.Errorf("--netrc-file: exit %d\n%s", code, out)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"-u", dn + ":wrong", ldapURL(dn)}, 4},
		{[]string{ldapURL("cn=nobody," + testbed.LDAPSuffix)}, 3},
		{[]string{ldapURL(testbed.LDAPSuffix + "????!x-mystery=1")}, 2},
	} {
		if r := runLDAP(t, tc.args...); r.code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s", tc.args, r.code, tc.code, r.stderr)
		} else if tc.code == 4 && strings.Contains(r.stderr, "wrong") {
			t.Errorf("the password shows in %q", r.stderr)
		} else if tc.code == 2 && !strings.Contains(r.stderr, "x-mystery") {
			t.Errorf("the extension is not named: %q", r.stderr)
		}
	}
}

// b64 is s in base64, as LDIF writes it.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// ldapRun is a run of urlget with its output and messages.
type ldapRun struct {
	stdout, stderr string
	code           int
}

// runLDAP runs urlget with args and returns what it wrote and its exit
// status.
func runLDAP(t *testing.T, args ...string) ldapRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, urlgetBinary(t), args...)
	cmd.Dir = t.TempDir()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := ldapRun{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLDAPTLS: --ssl-reqd makes an ldap URL use StartTLS (-v shows the
// extended operation and the handshake, the entries are the same); an
// ldaps URL is TLS from the start; both verified with the test CA.
func TestLDAPTLS(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	s := testbed.LDAPSuffix
	want := string(ldapsearch(t, "-b", "ou=dept1,"+s, "-s", "one"))
	r := runLDAP(t, "-v", "--ssl-reqd", "--cacert", testbed.CACertFile(), ldapURL("ou=dept1,"+s+"??one"))
	if r.code != 0 || r.stdout != want {
		t.Errorf("StartTLS: exit %d, %q; want %q\n%s", r.code, r.stdout, want, r.stderr)
	}
	for _, line := range []string{"> extended 1.3.6.1.4.1.1466.20037 (StartTLS)", "< starttls: success", "TLS 1."} {
		if !strings.Contains(r.stderr, line) {
			t.Errorf("-v does not show %q:\n%s", line, r.stderr)
		}
	}
	ldaps := "ldaps://" + testbed.Addr(testbed.LDAPSPort) + "/ou=dept1," + s + "??one"
	if out, code := runURLGetOutput(t, t.TempDir(), "--cacert", testbed.CACertFile(), ldaps); code != 0 || out != want {
		t.Errorf("ldaps: exit %d, %q", code, out)
	}
	// Without the test CA the certificate is not trusted: exit 7.
	if r := runLDAP(t, ldaps); r.code != 7 {
		t.Errorf("ldaps without the CA: exit %d, want 7\n%s", r.code, r.stderr)
	}
}

// TestLDAPList: ls --json lists a search's entries, each the URL of its
// own DN; a base-scope URL lists its entry's children, as many as
// ldapsearch's one-level search finds; leaves are files, the rest dirs.
func TestLDAPList(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	team := "ou=team2,ou=dept3," + testbed.LDAPSuffix
	out, code := runURLGetOutput(t, t.TempDir(), "ls", "--json", ldapURL(team))
	if code != 0 {
		t.Fatalf("ls: exit %d", code)
	}
	var got struct {
		Entries []struct{ Name, Title, Kind, URL string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := ldifEntries(ldapsearch(t, "-b", team, "-s", "one", "1.1"))
	if len(got.Entries) != want || want != 15 {
		t.Fatalf("%d entries, want %d (ldapsearch) = 15", len(got.Entries), want)
	}
	for _, e := range got.Entries {
		if e.Kind != "file" || !strings.HasSuffix(e.Title, ","+team) || !strings.HasPrefix(e.Title, e.Name+",") {
			t.Errorf("entry %+v", e)
		}
		one, code := runURLGetOutput(t, t.TempDir(), e.URL)
		if code != 0 || !strings.HasPrefix(one, "dn: "+e.Title+"\n") && !strings.HasPrefix(one, "dn:: ") || ldifEntries([]byte(one)) != 1 {
			t.Errorf("%s: exit %d\n%s", e.URL, code, one)
		}
	}
	top, _ := runURLGetOutput(t, t.TempDir(), "ls", ldapURL(testbed.LDAPSuffix))
	if !strings.Contains(top, "[dir] ou=dept1,") || !strings.Contains(top, "[file] cn=reader,") {
		t.Errorf("ls of the root:\n%s", top)
	}
}

// TestFSWalkDirLDAP walks the directory information tree through fetch's
// FS, a one-level search a directory: every entry of a department, at
// the depth of its DN, and a leaf read as its LDIF.
func TestFSWalkDirLDAP(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	dept := "ou=dept4," + testbed.LDAPSuffix
	fsys := fsOfURL(t, ldapURL(dept))
	var files, dirs int
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch depth := strings.Count(p, "/"); {
		case p == ".":
		case d.IsDir() && depth == 0 && strings.HasPrefix(p, "ou=team"):
			dirs++
		case !d.IsDir() && depth == 1 && strings.HasPrefix(p, "ou=team"):
			files++
		default:
			return errors.New("unexpected " + p)
		}
		return nil
	})
	want := ldifEntries(ldapsearch(t, "-b", dept, "-s", "sub", "(objectClass=inetOrgPerson)", "1.1"))
	if err != nil || dirs != 4 || files != want || want != 60 {
		t.Errorf("WalkDir: %d dirs, %d files, %v; want 4 and %d = 60", dirs, files, err, want)
	}
	b, err := fs.ReadFile(fsys, "ou=team1/cn=person 181")
	ref := ldapsearch(t, "-b", "cn=person 181,ou=team1,"+dept, "-s", "base")
	if err != nil || !bytes.Equal(b, ref) {
		t.Errorf("a leaf: %q, %v; want %q", b, err, ref)
	}
	if _, err := fs.ReadFile(fsys, "ou=team1/cn=nobody"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a name not listed: %v", err)
	}
}

// slapdLinesFrom is the lines of slapd's log that belong to connections
// it accepted from the address ip ("conn=N fd=F ACCEPT from
// IP=ip:port"), in order: a test dialing from testbed.ClientIP reads its
// own operations, not other clients' at the same moment. The listener
// thread may log a connection's ACCEPT after a worker logged its first
// operation (CI run 26), so the connections are found first.
func slapdLinesFrom(log []byte, ip string) []byte {
	connOf := func(line string) (conn, rest string) {
		_, rest, ok := strings.Cut(line, " conn=")
		if !ok {
			return "", ""
		}
		conn, rest, _ = strings.Cut(rest, " ")
		return conn, rest
	}
	ours := map[string]bool{}
	for line := range strings.Lines(string(log)) {
		if conn, rest := connOf(line); strings.Contains(rest, " ACCEPT from IP="+ip+":") {
			ours[conn] = true
		}
	}
	var out []byte
	for line := range strings.Lines(string(log)) {
		if conn, _ := connOf(line); conn != "" && ours[conn] {
			out = append(out, line...)
		}
	}
	return out
}
