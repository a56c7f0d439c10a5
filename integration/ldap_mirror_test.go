//go:build integration

package integration

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/mirror"
)

// ldapAdmin runs an OpenLDAP tool (ldapadd, ldapmodify, ldapdelete)
// bound as the rootdn against the test bed's slapd, with input on its
// stdin, and fails t if it fails.
func ldapAdmin(t *testing.T, tool, input string, args ...string) {
	t.Helper()
	if out, err := ldapAdminRun(tool, input, args...); err != nil {
		t.Fatalf("%s %q: %v\n%s", tool, args, err, out)
	}
}

// ldapAdminRun is ldapAdmin's run of tool, its output and error.
func ldapAdminRun(tool, input string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	full := append([]string{"-x", "-o", "nettimeout=30", "-H", "ldap://" + testbed.Addr(testbed.LDAPPort),
		"-D", testbed.LDAPAdminDN, "-w", testbed.LDAPAdminPassword}, args...)
	cmd := exec.CommandContext(ctx, tool, full...)
	cmd.Stdin = strings.NewReader(input)
	return cmd.CombinedOutput()
}

// ldifDNs are the DNs of LDIF text, "dn::" ones decoded.
func ldifDNs(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "dn:: "); ok {
			d, err := base64.StdEncoding.DecodeString(v)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(d))
		} else if v, ok := strings.CutPrefix(line, "dn: "); ok {
			out = append(out, v)
		}
	}
	return out
}

// mirrorPath is where a mirror of base keeps the entry dn: its RDNs below
// base, the nearest last, as directories ("ou=team1/cn=person 1"). The
// fixture's DNs escape no ",".
func mirrorPath(dn, base string) string {
	rdns := strings.Split(strings.TrimSuffix(dn, ","+base), ",")
	for i, j := 0, len(rdns)-1; i < j; i, j = i+1, j-1 {
		rdns[i], rdns[j] = rdns[j], rdns[i]
	}
	return strings.Join(rdns, "/")
}

// sha is b's SHA-256 in hex, as hostTree gives it.
func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestMirrorLDAP mirrors a department: each leaf entry a file named by
// its RDN, byte for byte what ldapsearch -LLL -s base prints of it, with
// its modifyTimestamp as its time, and each entry with subordinates a
// directory of its RDN, from the start's subtree search (??sub) as well;
// a second run lists and fetches nothing.
func TestMirrorLDAP(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	dept := "ou=dept1," + testbed.LDAPSuffix
	dst := t.TempDir()
	sum, ev, _, err := runMirror(t, "", ldapURL(dept), dst, mirror.Options{})
	if err != nil || sum.Got != 60 || sum.Listed != 5 {
		t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
	}
	leaves := ldifDNs(t, ldapsearch(t, "-b", dept, "-s", "sub", "(objectClass=inetOrgPerson)", "1.1"))
	if len(leaves) != 60 {
		t.Fatalf("ldapsearch finds %d people, want 60", len(leaves))
	}
	want := map[string]string{}
	for _, dn := range leaves {
		want[mirrorPath(dn, dept)] = sha(ldapsearch(t, "-b", dn, "-s", "base"))
	}
	sameTrees(t, hostTree(t, dst), want)
	for _, team := range []string{"ou=team1", "ou=team2", "ou=team3", "ou=team4"} {
		if fi, err := os.Stat(filepath.Join(dst, team)); err != nil || !fi.IsDir() {
			t.Errorf("%s: %v, want a directory", team, err)
		}
	}
	// A subtree search as the start is the same tree: each of its hits
	// is mirrored from its own directory's listing, once.
	sub := t.TempDir()
	sum, ev, _, err = runMirror(t, "", ldapURL(dept+"??sub"), sub, mirror.Options{})
	if err != nil || sum.Got != 60 || sum.Skipped != 61 {
		t.Errorf("??sub: err %v, summary %+v\n%s", err, sum, ev)
	}
	sameTrees(t, hostTree(t, sub), want)
	// The time is the entry's modifyTimestamp.
	dn := "cn=person 1,ou=team1," + dept
	stamp := strings.TrimPrefix(strings.Split(string(ldapsearch(t, "-b", dn, "-s", "base", "modifyTimestamp")), "\n")[1], "modifyTimestamp: ")
	mod, err := time.Parse("20060102150405Z", stamp)
	if fi, serr := os.Stat(filepath.Join(dst, "ou=team1", "cn=person 1")); err != nil || serr != nil || !fi.ModTime().Equal(mod) {
		t.Errorf("time of %s: %v (%v, %v), want its modifyTimestamp %q", dn, fi.ModTime(), err, serr, stamp)
	}
	// Again: the listings say nothing changed, and no entry is read.
	off := testbed.LogSize(testbed.Slapd)
	again, ev, _, err := runMirror(t, "", ldapURL(dept), dst, mirror.Options{})
	if err != nil || again.Got != 0 || again.Unchanged != 60 || again.Listed != 5 {
		t.Fatalf("second run: err %v, summary %+v\n%s", err, again, ev)
	}
	var log []byte
	await.Poll(func() bool { // slapd logs each search when it ends
		log, _ = testbed.ReadProtocolLogSince(testbed.Slapd, off)
		return bytes.Count(log, []byte(" SEARCH RESULT ")) >= 5
	})
	// Only searches in the mirrored subtree count: the log also holds
	// the container's health check and other tests' searches.
	n, base := 0, 0
	for line := range strings.Lines(string(log)) {
		_, rest, ok := strings.Cut(line, ` SRCH base="`)
		if !ok {
			continue
		}
		dn, scope, _ := strings.Cut(rest, `" scope=`)
		if dn != dept && !strings.HasSuffix(dn, ","+dept) {
			continue
		}
		n++
		if strings.HasPrefix(scope, "0 ") {
			base++
		}
	}
	if n != 5 || base != 0 {
		t.Errorf("second run: %d searches in %s, %d of them of an entry; want the 5 listings alone\n%s", n, dept, base, log)
	}
}

// TestMirrorLDAPChanges mirrors a subtree of its own, made for the test
// and removed after it: UTF-8 names are kept, a name no file can have
// ("cn=a/b") is refused and said so, an entry changed is fetched again
// (its modifyTimestamp is a second later), and with --delete an entry
// deleted goes, and nothing else.
func TestMirrorLDAPChanges(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	top := "ou=mirror-changes," + testbed.LDAPSuffix
	ldapAdminRun("ldapdelete", "", "-r", top) // what a run cut short left, if anything
	ldif := "dn: " + top + "\nobjectClass: organizationalUnit\nou: mirror-changes\n\n" +
		"dn: cn=keep," + top + "\nobjectClass: organizationalRole\ncn: keep\n\n" +
		"dn: cn=gone," + top + "\nobjectClass: organizationalRole\ncn: gone\n\n" +
		"dn:: " + b64("cn=Zoë Ñandú,"+top) + "\nobjectClass: organizationalRole\ncn:: " + b64("Zoë Ñandú") + "\n\n" +
		"dn: cn=a/b," + top + "\nobjectClass: organizationalRole\ncn: a/b\n\n" +
		"dn: ou=sub," + top + "\nobjectClass: organizationalUnit\nou: sub\n\n" +
		"dn: cn=deep,ou=sub," + top + "\nobjectClass: organizationalRole\ncn: deep\n\n"
	ldapAdmin(t, "ldapadd", ldif)
	t.Cleanup(func() {
		if out, err := ldapAdminRun("ldapdelete", "", "-r", top); err != nil {
			t.Errorf("removing %s: %v\n%s", top, err, out)
		}
	})
	dst := t.TempDir()
	sum, ev, _, err := runMirror(t, "", ldapURL(top), dst, mirror.Options{Delete: true})
	if err != nil || sum.Got != 4 || sum.Skipped != 1 || sum.Deleted != 0 {
		t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
	}
	if !strings.Contains(ev.String(), `unsafe name "cn=a/b,`+top+`" refused`) {
		t.Errorf("the name cn=a/b is not refused by name:\n%s", ev)
	}
	want := map[string]string{}
	for _, dn := range []string{"cn=keep", "cn=gone", "cn=Zoë Ñandú", "cn=deep,ou=sub"} {
		want[mirrorPath(dn, "")] = sha(ldapsearch(t, "-b", dn+","+top, "-s", "base"))
	}
	sameTrees(t, hostTree(t, dst), want)

	// cn=keep changes a second after it was made at the earliest: its
	// modifyTimestamp then differs from the one its copy has.
	made, err := os.Stat(filepath.Join(dst, "cn=keep"))
	if err != nil {
		t.Fatal(err)
	}
	await.Until(t, "the next second", func() bool { return time.Now().Truncate(time.Second).After(made.ModTime()) })
	ldapAdmin(t, "ldapmodify", "dn: cn=keep,"+top+"\nchangetype: modify\nadd: description\ndescription: changed\n")
	ldapAdmin(t, "ldapdelete", "", "cn=gone,"+top)
	again, ev, _, err := runMirror(t, "", ldapURL(top), dst, mirror.Options{Delete: true})
	if err != nil || again.Got != 1 || again.Deleted != 1 || again.Unchanged != 2 {
		t.Fatalf("second run: err %v, summary %+v\n%s", err, again, ev)
	}
	delete(want, "cn=gone")
	want["cn=keep"] = sha(ldapsearch(t, "-b", "cn=keep,"+top, "-s", "base"))
	sameTrees(t, hostTree(t, dst), want)
}

// TestMirrorLDAPBench mirrors the 10,000 entries of the bench, one level,
// with the urlget command: every entry a file, its memory bounded (peak
// RSS under 64 MiB: 26 MiB measured, of which the live heap is 2 MiB),
// and a second run fetches none.
func TestMirrorLDAPBench(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	dst := t.TempDir()
	for run, want := range []string{"10000 fetched", "0 fetched (0 B), 10000 unchanged"} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, urlgetBinary(t), "mirror", ldapURL(testbed.LDAPBenchDN), dst)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		rss, err := peakRSS(cmd)
		cancel()
		if err != nil || !strings.Contains(stderr.String(), "mirrored: "+want) {
			t.Fatalf("run %d: %v, %s; want %q", run+1, err, stderr.String(), want)
		}
		t.Logf("run %d: peak RSS %d KiB, %s", run+1, rss, strings.TrimSpace(stderr.String()))
		if rss > 64<<10 {
			t.Errorf("run %d: peak RSS %d KiB, want under 64 MiB", run+1, rss)
		}
	}
	names, err := os.ReadDir(dst)
	if err != nil || len(names) != testbed.LDAPBenchEntries {
		t.Fatalf("%d entries mirrored (%v), want %d", len(names), err, testbed.LDAPBenchEntries)
	}
	b, err := os.ReadFile(filepath.Join(dst, "uid=b00042"))
	if ref := ldapsearch(t, "-b", "uid=b00042,"+testbed.LDAPBenchDN, "-s", "base"); err != nil || !bytes.Equal(b, ref) {
		t.Errorf("uid=b00042: %q, %v; want %q", b, err, ref)
	}
}

// peakRSS runs cmd and returns the largest resident set it had, in KiB:
// its VmHWM (/proc/PID/status) as last read while it ran, every few
// milliseconds. The rusage wait4 gives is no measure of it: a child's
// ru_maxrss starts from its parent's at fork, and this test's process is
// the larger.
func peakRSS(cmd *exec.Cmd) (int64, error) {
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	var peak int64
	for {
		select {
		case err := <-done:
			return peak, err
		case <-tick.C:
			b, err := os.ReadFile(status)
			if err != nil {
				continue // ended meanwhile
			}
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					if kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64); err == nil && kb > peak {
						peak = kb
					}
				}
			}
		}
	}
}
