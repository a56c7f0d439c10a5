//go:build integration

package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// sftpProxy makes toxiproxy's proxy in front of sshd
// (testbed.ToxiSFTPProxy), with no toxics, and deletes it when the test
// ends. It is made at run time, not in the service's config, so that a
// stack already running gets it too; one left by a killed run is made
// again clean. The shared proxies are left alone (no cure): tests of
// other schemes may be using them.
func sftpProxy(t *testing.T) *toxiproxy.Client {
	t.Helper()
	testbed.Require(t, testbed.SFTP)
	testbed.Require(t, testbed.Toxiproxy)
	c := toxiproxy.NewClient(testbed.Addr(testbed.ToxiproxyAPIPort))
	sftpCure(t, c)
	t.Cleanup(func() {
		if p, err := c.Proxy(testbed.ToxiSFTP); err == nil {
			p.Delete()
		}
	})
	return c
}

// sftpCure makes the sftp proxy again without toxics: deleting it closes
// its connections at once (see cure for why that beats removing toxics).
func sftpCure(t *testing.T, c *toxiproxy.Client) {
	t.Helper()
	if p, err := c.Proxy(testbed.ToxiSFTP); err == nil {
		if err := p.Delete(); err != nil {
			t.Fatalf("toxiproxy: deleting %s: %v", testbed.ToxiSFTP, err)
		}
	}
	p := testbed.ToxiSFTPProxy()
	if _, err := c.Populate([]toxiproxy.Proxy{{Name: p.Name, Listen: p.Listen, Upstream: p.Upstream, Enabled: true}}); err != nil {
		t.Fatalf("toxiproxy: making %s: %v", p.Name, err)
	}
}

// sftpToxiTarget is the 64 MiB fixture through the sftp proxy, logged in
// as alice, with the known hosts file for the proxy's port.
func sftpToxiTarget(t *testing.T) (faultTarget, string) {
	t.Helper()
	tg := faultTarget{name: "sftp", url: sftpURLAt(testbed.ToxiSFTPPort, testbed.BigFile),
		data: []string{testbed.ToxiSFTP}, control: []string{testbed.ToxiSFTP}, resumes: true,
		resumeMark: "READ /srv/fixtures/" + testbed.BigFile + " from byte ", framed: true}
	return withBig([]faultTarget{tg})[0], sftpKnownHostsAt(t, sftpHostKey(t), testbed.ToxiSFTPPort)
}

// continued is what a run's --json line says of a download.
type continued struct {
	Bytes    int64 `json:"bytes"`
	Segments int   `json:"segments"`
}

// sftpContinue runs `urlget -C - -v --json` for name in dir, wants it to
// complete byte-exact, continuing from byte held when held > 0 (the
// trace's READ), and returns what its --json line says.
func sftpContinue(t *testing.T, dir, kh, name string, held int64, tg faultTarget) continued {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, urlgetBinary(t), "--known-hosts", kh, "-v", "-C", "-", "--json", "-o", name, tg.url)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("-C -: %v\n%s", err, tail(stderr.String()))
	}
	if sum, n := fileSHA256(t, filepath.Join(dir, name)); sum != tg.sum || n != tg.size {
		t.Fatalf("continued: %d bytes, SHA-256 %s; want %d, %s", n, sum, tg.size, tg.sum)
	}
	if held > 0 {
		if mark := fmt.Sprintf("%s%d", tg.resumeMark, held); !strings.Contains(stderr.String(), mark) {
			t.Errorf("-C - did not continue from the part's %d bytes (no %q in the trace):\n%s", held, mark, tail(stderr.String()))
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, name+fetch.PartSuffix)); err == nil {
		t.Errorf("%s%s left after the download completed", name, fetch.PartSuffix)
	}
	var res continued
	line, _, _ := bytes.Cut(stdout.Bytes(), []byte("\n"))
	if err := json.Unmarshal(line, &res); err != nil {
		t.Fatalf("--json: %v in %q", err, stdout.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), testbed.AlicePassword) {
		t.Error("the password is in the output or the trace")
	}
	return res
}

// TestSFTPFaultCutResumes: the SSH connection cut by toxiproxy after
// 20 MiB of a 64 MiB copy fails the run (exit 5) with no file under its
// name and a NAME.part that is a prefix of the file; -C - then reads
// from exactly its length (SFTP reads name their offset) to the whole
// file, fetching only what was missing.
func TestSFTPFaultCutResumes(t *testing.T) {
	c := sftpProxy(t)
	tg, kh := sftpToxiTarget(t)
	const limit = 20 << 20
	poison(t, c, tg.data, cutAfter(limit)...)
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	r := runURLGet(t, dir, "--known-hosts", kh, "--idle-timeout", "30", "-o", "big.bin", tg.url)
	mustFail(t, r, dir, "big.bin", tg, 0, 30*time.Second)
	held := checkPart(t, r, dir, "big.bin", limit)
	sftpCure(t, c)
	if got := sftpContinue(t, dir, kh, "big.bin", held, tg).Bytes; got != tg.size-held {
		t.Errorf("-C - fetched %d bytes; want the %d missing past the part's %d", got, tg.size-held, held)
	}
}

// TestSFTPKilledResumes: urlget killed (SIGKILL) in the middle of a
// 64 MiB sftp copy through toxiproxy leaves NAME.part; -C - continues it
// from its length, byte-exact, fetching only the rest.
func TestSFTPKilledResumes(t *testing.T) {
	sftpProxy(t)
	tg, kh := sftpToxiTarget(t)
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	cmd := execURLGet(urlgetBinary(t), dir, "-s", "--known-hosts", kh, "--limit-rate", "16M", "-o", "big.bin", tg.url)
	part := filepath.Join(dir, "big.bin"+fetch.PartSuffix)
	killWhen(t, cmd, func() bool {
		fi, err := os.Stat(part)
		return err == nil && fi.Size() >= 16<<20
	})
	fi, err := os.Stat(part)
	if err != nil {
		t.Fatal(err)
	}
	held := fi.Size()
	t.Logf("killed with %d bytes in %s", held, part)
	if got := sftpContinue(t, dir, kh, "big.bin", held, tg).Bytes; got != tg.size-held {
		t.Errorf("-C - fetched %d bytes; want the %d missing past the part's %d", got, tg.size-held, held)
	}
}

// killWhen starts cmd and kills it (SIGKILL) once cond holds, failing the
// test if it ends first or cond never holds.
func killWhen(t *testing.T, cmd *exec.Cmd, cond func() bool) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	ended := func() bool {
		select {
		case <-exited:
			return true
		default:
			return false
		}
	}
	ok := await.Poll(func() bool { return ended() || cond() })
	if ended() {
		t.Fatalf("urlget ended before it could be killed (%v)\n%s", cmd.ProcessState, tail(stderr.String()))
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	if !ok {
		t.Fatalf("the condition to kill urlget never held\n%s", tail(stderr.String()))
	}
}

// TestSFTPSegments: --segments 4 over sftp is byte exact and comes over
// several SSH connections (Result.Segments, and the sessions the -v
// trace shows); urlget killed midway through toxiproxy leaves a
// NAME.part whose record of ranges -C - goes by, fetching only the
// missing bytes, in segments again.
func TestSFTPSegments(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	var trace lockedBuffer
	reg := mustRegistry(fetch.Config{Options: schemes.Options{"known-hosts": sftpKnownHosts(t, sftpHostKey(t))}})
	c := &fetch.Client{Registry: reg, Dialer: &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
		LimitRate: 128 << 20, Trace: transport.NewTrace(&trace)}
	defer c.CloseIdleConnections()
	dest := filepath.Join(t.TempDir(), "big.bin")
	res, err := c.Download(context.Background(), sftpURL(testbed.BigFile), dest, fetch.DownloadOptions{Segments: 4})
	if err != nil {
		t.Fatalf("%v\n%s", err, tail(trace.String()))
	}
	if got, _ := fileSHA256(t, dest); got != testbed.BigFileSHA256 {
		t.Fatalf("SHA-256 %s, want %s", got, testbed.BigFileSHA256)
	}
	logins := strings.Count(trace.String(), "SSH to "+testbed.Addr(testbed.SFTPPort))
	if res.Segments < 2 || logins < 2 {
		t.Errorf("Segments = %d, %d SSH connections in the trace: one connection carried it all", res.Segments, logins)
	}
	t.Logf("%d connections carried data, %d SSH connections made", res.Segments, logins)

	t.Run("killed", func(t *testing.T) {
		sftpProxy(t)
		tg, kh := sftpToxiTarget(t)
		dir := t.TempDir()
		t.Setenv("HOME", t.TempDir())
		cmd := execURLGet(urlgetBinary(t), dir, "-s", "--known-hosts", kh, "--segments", "4", "--limit-rate", "16M",
			"-o", "big.bin", tg.url)
		part := filepath.Join(dir, "big.bin"+fetch.PartSuffix)
		var held partHeld
		// As in TestSegmentsKilled: once the record holds a quarter of
		// the file in two ranges or more, data from several connections.
		killWhen(t, cmd, func() bool {
			held = readPartHeld(part)
			return held.ranges >= 2 && held.bytes >= testbed.BigFileSize/4
		})
		t.Logf("killed with %d bytes held in %d ranges", held.bytes, held.ranges)
		res := sftpContinue(t, dir, kh, "big.bin", 0, tg)
		// The record may have grown between the look and the kill (it is
		// stored four times a second), and a connection whose range was
		// taken over may write a read past its end: a few MiB either way.
		if missing := tg.size - held.bytes; res.Bytes <= 0 || res.Bytes > missing+(4<<20) || res.Bytes < missing-(8<<20) {
			t.Errorf("-C - fetched %d bytes of %d with %d recorded: the killed run's ranges were not kept", res.Bytes, tg.size, held.bytes)
		}
		if res.Segments < 1 {
			t.Errorf("--json says %d segments: the continuation did not go by the record's ranges", res.Segments)
		}
	})
}

// TestSFTPFaultRetryCompletes: every SSH connection cut after 24 MiB, a
// 64 MiB sftp copy completes with --retry 3 only if each try continues
// from what the ones before received (a lost connection is retryable).
func TestSFTPFaultRetryCompletes(t *testing.T) {
	c := sftpProxy(t)
	tg, kh := sftpToxiTarget(t)
	poison(t, c, tg.data, cutAfter(24<<20)...)
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	r := runURLGet(t, dir, "--known-hosts", kh, "-v", "--retry", "3", "--retry-delay", "0.1", "--idle-timeout", "10",
		"-o", "big.bin", tg.url)
	if r.code != 0 {
		t.Fatalf("--retry 3: exit %d\n%s", r.code, tail(r.stderr))
	}
	checkOutcome(t, r, dir, "big.bin", tg)
	if n := strings.Count(r.stderr, tg.resumeMark); n < 2 {
		t.Errorf("%d tries continued with %q, want at least 2\n%s", n, tg.resumeMark, tail(r.stderr))
	}
}

// TestSFTPFaultStallMidBody: a 64 MiB sftp copy dripping at 2 MB/s, then
// silenced once a megabyte has arrived, fails within --idle-timeout 2 of
// the stall as a timeout (the SSH connection's end says why the SFTP
// channel was lost), keeping a NAME.part that -C - completes.
func TestSFTPFaultStallMidBody(t *testing.T) {
	c := sftpProxy(t)
	tg, kh := sftpToxiTarget(t)
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	r := stallMidBody(t, c, tg, dir, "--known-hosts", kh)
	if !strings.Contains(r.stderr, "timed out") {
		t.Errorf("the failure does not say it timed out:\n%s", tail(r.stderr))
	}
	held := checkPart(t, r, dir, "big.bin", tg.size)
	sftpCure(t, c)
	if got := sftpContinue(t, dir, kh, "big.bin", held, tg).Bytes; got != tg.size-held {
		t.Errorf("-C - fetched %d bytes; want the %d missing past the part's %d", got, tg.size-held, held)
	}
}
