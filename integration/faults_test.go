//go:build integration

package integration

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// Fault injection with Shopify's toxiproxy (the toxiproxy service, see
// testbed.ToxiproxyProxies): the built urlget binary downloads through the
// proxies in front of nginx, gophernicus, INN and vsftpd — its control and
// its data connections — while toxics cut, reset, slow, delay or silence
// the connection. Whatever the fault, what must hold is:
//   - a run that exits 0 wrote exactly the body (SHA-256 of the fixture):
//     a truncated file is never reported as done;
//   - a failed run leaves no file under the final name, but keeps what it
//     received in NAME.part and says "-C -", and `-C -` continues it from
//     its length, byte-exact;
//   - --retry completes a download that is cut again and again, each try
//     continuing from the bytes already held;
//   - a peer that stops answering fails within --idle-timeout (and a slow
//     but live one does not), and --max-time bounds a slow drip.
//
// The tests are not parallel: a toxic acts on every connection through its
// proxy, so each test starts from and leaves clean proxies (cure).

// Exit status of urlget for a connection that broke or timed out (see
// cmd/urlget's package comment).
const exitConnect = 5

// idleSlack is how much later than its --idle-timeout or --max-time a run
// may end: the timers are exact, but a loaded two-core machine (CI) can
// delay a process by a second or two.
const idleSlack = 3 * time.Second

// faultTarget is one resource fetched through toxiproxy.
type faultTarget struct {
	name string
	url  string
	// data are the proxies that carry the body: the server's own proxy,
	// or for FTP the proxies of every passive data port.
	data []string
	// control is the proxy of the connection that carries the request
	// (for all but FTP the same as data).
	control []string
	sum     string // hex SHA-256 of the body
	size    int64
	// resumes: -C - and --retry continue from the bytes held (HTTP Range,
	// FTP REST); resumeMark is the request the -v trace shows for that,
	// followed by the offset.
	resumes    bool
	resumeMark string
	// cuts are byte counts after which the connection is closed, each
	// before the end of the body; framed says a clean close (FIN) there
	// is detectable (a length or a terminator). RFC 1436 gopher has
	// neither: its body ends with the close, so it is cut with RST only.
	cuts   []int64
	framed bool
}

// ftpDataProxies names the proxies of all vsftpd's passive ports: a toxic
// on FTP's data path goes on each, whichever port vsftpd picks.
func ftpDataProxies() []string {
	var ps []string
	for p := testbed.VsftpdPasvMin; p <= testbed.VsftpdPasvMax; p++ {
		ps = append(ps, testbed.ToxiFTPData(p))
	}
	return ps
}

// toxiURL is scheme://host:port/path, with an IPv6 host in brackets.
func toxiURL(scheme string, host string, port int, path string) string {
	return scheme + "://" + net.JoinHostPort(host, strconv.Itoa(port)) + path
}

// bigTargets are the 64 MiB fixture through each proxy that can carry it.
func bigTargets() []faultTarget {
	const mib = 1 << 20
	http := []string{testbed.ToxiHTTP}
	gopher := []string{testbed.ToxiGopher}
	return []faultTarget{
		{name: "http", url: toxiURL("http", testbed.Host, testbed.ToxiHTTPPort, "/"+testbed.BigFile),
			data: http, control: http, resumes: true, resumeMark: "> Range: bytes=",
			cuts: []int64{1, 100, mib, 40 * mib}, framed: true},
		{name: "ftp", url: toxiURL("ftp", testbed.ToxiFTPHost, testbed.ToxiFTPPort, "/"+testbed.BigFile),
			data: ftpDataProxies(), control: []string{testbed.ToxiFTP}, resumes: true, resumeMark: "> REST ",
			cuts: []int64{1, mib, 40 * mib}, framed: true},
		{name: "gopher", url: toxiURL("gopher", testbed.Host, testbed.ToxiGopherPort, "/9/"+testbed.BigFile),
			data: gopher, control: gopher, cuts: []int64{1, mib, 40 * mib}},
	}
}

// withBig fills in the big fixture's size and digest.
func withBig(ts []faultTarget) []faultTarget {
	for i := range ts {
		ts[i].sum, ts[i].size = testbed.BigFileSHA256, testbed.BigFileSize
	}
	return ts
}

// smallTargets are small resources through every proxy: small.bin over
// HTTP, FTP and gopher, and a seeded article over NNTP.
func smallTargets(t *testing.T) []faultTarget {
	small := sha256.Sum256(testbed.SmallBin())
	ts := []faultTarget{}
	for _, b := range bigTargets() {
		b.url = strings.Replace(b.url, testbed.BigFile, "bin/small.bin", 1)
		b.sum, b.size = hex.EncodeToString(small[:]), int64(len(testbed.SmallBin()))
		ts = append(ts, b)
	}
	return append(ts, articleTarget(t))
}

// articleTarget is MsgLongHeader (about 1.7 KB, with a folded 1,000-byte
// header) through the NNTP proxy; the bytes expected are the same article
// fetched without the proxy.
func articleTarget(t *testing.T) faultTarget {
	nntp := []string{testbed.ToxiNNTP}
	path := fmt.Sprintf("/%s/2", testbed.GroupMisc)
	tg := faultTarget{name: "nntp", url: toxiURL("nntp", testbed.Host, testbed.ToxiNNTPPort, path),
		data: nntp, control: nntp,
		// The greeting and CAPABILITIES reply come first (about 400 bytes):
		// cut in the greeting, in the capabilities and in the article.
		cuts: []int64{40, 400, 1200}, framed: true}
	tg.sum, tg.size = directSHA256(t, toxiURL("nntp", testbed.Host, testbed.NNTPPort, path))
	return tg
}

// directSHA256 fetches raw from the server itself (no proxy) and returns
// the digest and size of what urlget wrote.
func directSHA256(t *testing.T, raw string) (string, int64) {
	t.Helper()
	dir := t.TempDir()
	if r := runURLGet(t, dir, "-o", "direct", raw); r.code != 0 {
		t.Fatalf("%s without the proxy: exit %d: %s", raw, r.code, r.stderr)
	}
	return fileSHA256(t, filepath.Join(dir, "direct"))
}

// toxics returns a client of the toxiproxy service, its proxies cleared of
// toxics now and again when the test ends.
func toxics(t *testing.T) *toxiproxy.Client {
	t.Helper()
	testbed.Require(t, testbed.Toxiproxy)
	c := toxiproxy.NewClient(testbed.Addr(testbed.ToxiproxyAPIPort))
	cure(t, c) // what a killed run may have left
	t.Cleanup(func() { cure(t, c) })
	return c
}

// cure removes every toxic from every fault-injection proxy (those of
// testbed.ToxiproxyProxies; the WAN proxies of integration/wan, which a
// bench may have up meanwhile, keep theirs). A proxy that has toxics is
// deleted and made again rather than having them removed: removing a
// toxic from a connection whose client is gone can block toxiproxy for
// 5 s per toxic (a bandwidth toxic waits that long to hand on what it
// holds), while deleting a proxy just closes its connections.
func cure(t *testing.T, c *toxiproxy.Client) {
	t.Helper()
	ps, err := c.Proxies()
	if err != nil {
		t.Errorf("toxiproxy: %v", err)
	}
	ours := map[string]bool{}
	for _, p := range testbed.ToxiproxyProxies() {
		ours[p.Name] = true
	}
	var again []toxiproxy.Proxy
	for _, p := range ps {
		if !ours[p.Name] {
			continue
		}
		if !p.Enabled && len(p.ActiveToxics) == 0 {
			if err := p.Enable(); err != nil {
				t.Errorf("toxiproxy: enabling %s: %v", p.Name, err)
			}
			continue
		}
		if len(p.ActiveToxics) == 0 {
			continue
		}
		if err := p.Delete(); err != nil {
			t.Errorf("toxiproxy: deleting %s: %v", p.Name, err)
		}
		again = append(again, toxiproxy.Proxy{Name: p.Name, Listen: p.Listen, Upstream: p.Upstream, Enabled: true})
	}
	if len(again) > 0 {
		if _, err := c.Populate(again); err != nil {
			t.Errorf("toxiproxy: making the proxies again: %v", err)
		}
	}
}

// poison adds the toxics to each of the proxies; they act on the
// connections open now and on every later one, until cure, at the latest
// when the (sub)test ends. A proxy a test made itself (not in
// testbed.ToxiproxyProxies, such as testbed.ToxiSFTPProxy) is that
// test's to clear: cure, which clears the shared ones, is not run for it.
func poison(t *testing.T, c *toxiproxy.Client, proxies []string, toxics ...toxiproxy.ToxicOptions) {
	t.Helper()
	shared := map[string]bool{}
	for _, p := range testbed.ToxiproxyProxies() {
		shared[p.Name] = true
	}
	if slices.ContainsFunc(proxies, func(p string) bool { return shared[p] }) {
		t.Cleanup(func() { cure(t, c) })
	}
	for _, p := range proxies {
		for _, tx := range toxics {
			tx.ProxyName = p
			if _, err := c.AddToxic(&tx); err != nil {
				t.Fatalf("toxiproxy: adding %s to %s: %v", tx.ToxicType, p, err)
			}
		}
	}
}

// toxic is a toxic of toxiproxy's type typ on stream ("downstream": from
// the server to urlget), always active.
func toxic(name, typ, stream string, attrs toxiproxy.Attributes) toxiproxy.ToxicOptions {
	return toxiproxy.ToxicOptions{ToxicName: name, ToxicType: typ, Stream: stream, Toxicity: 1, Attributes: attrs}
}

// cutAfter closes each connection (FIN) once n bytes went to urlget.
func cutAfter(n int64) []toxiproxy.ToxicOptions {
	return []toxiproxy.ToxicOptions{toxic("cut", "limit_data", "downstream", toxiproxy.Attributes{"bytes": n})}
}

// resetAfter resets each connection (RST) once n bytes went to urlget.
// toxiproxy sets SO_LINGER 0 on both sides of a connection whose chain
// holds a reset_peer toxic when it is accepted; with toxicity 0 that toxic
// never acts itself, so limit_data's close after n bytes becomes a reset
// (the kernel may drop what it had not sent yet: at most n bytes arrive).
func resetAfter(n int64) []toxiproxy.ToxicOptions {
	linger := toxic("linger0", "reset_peer", "downstream", toxiproxy.Attributes{"timeout": 0})
	linger.Toxicity = 0
	return append(cutAfter(n), linger)
}

// swallow drops everything urlget sends, holding the connection open: the
// server never sees the request (or the next command) and stays silent.
func swallow() toxiproxy.ToxicOptions {
	return toxic("swallow", "timeout", "upstream", toxiproxy.Attributes{"timeout": 0})
}

// stall drops everything the server sends from now on. On its own it ends
// when the server closes; behind a drip the server is still sending, so
// the connection stays open and silent.
func stall() toxiproxy.ToxicOptions {
	return toxic("stall", "timeout", "downstream", toxiproxy.Attributes{"timeout": 0})
}

// drip passes the server's data at kbps KB/s, in pieces every 100 ms when
// the rate is low.
func drip(kbps int64) toxiproxy.ToxicOptions {
	return toxic("drip", "bandwidth", "downstream", toxiproxy.Attributes{"rate": kbps})
}

// delay holds each piece of the server's data for ms milliseconds.
func delay(ms int64) toxiproxy.ToxicOptions {
	return toxic("delay", "latency", "downstream", toxiproxy.Attributes{"latency": ms, "jitter": ms / 5})
}

var urlgetBin struct {
	once sync.Once
	path string
	err  error
}

// urlgetBinary builds cmd/urlget once per test process, into the test
// bed's run directory; URLGET_TEST_BINARY names a built one to test
// instead (another revision, a release).
func urlgetBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("URLGET_TEST_BINARY"); bin != "" {
		return bin
	}
	urlgetBin.once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		urlgetBin.path = filepath.Join(testbed.RunDir(), "bin", "urlget-faults")
		cmd := exec.Command("go", "build", "-o", urlgetBin.path, "./cmd/urlget")
		cmd.Dir = filepath.Join(filepath.Dir(file), "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			urlgetBin.err = fmt.Errorf("go build ./cmd/urlget: %v\n%s", err, out)
		}
	})
	if urlgetBin.err != nil {
		t.Fatal(urlgetBin.err)
	}
	return urlgetBin.path
}

type runResult struct {
	code   int
	stderr string
	took   time.Duration
}

// startURLGet starts urlget with args in dir; wait collects its result.
func startURLGet(t *testing.T, dir string, args ...string) (wait func() runResult) {
	t.Helper()
	return startURLGetWithin(t, 2*time.Minute, dir, args...)
}

// startURLGetWithin is startURLGet killing urlget after limit.
func startURLGetWithin(t *testing.T, limit time.Duration, dir string, args ...string) (wait func() runResult) {
	t.Helper()
	// A run that hangs fails the test instead of the whole package.
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	cmd := exec.CommandContext(ctx, urlgetBinary(t), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	return func() runResult {
		t.Helper()
		defer cancel()
		err := cmd.Wait()
		r := runResult{stderr: stderr.String(), took: time.Since(start)}
		if ctx.Err() != nil {
			t.Fatalf("urlget %s: still running after %v", strings.Join(args, " "), r.took)
		}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("urlget %s: %v", strings.Join(args, " "), err)
		}
		return r
	}
}

// runURLGet runs urlget with args in dir.
func runURLGet(t *testing.T, dir string, args ...string) runResult {
	t.Helper()
	return startURLGet(t, dir, args...)()
}

func fileSHA256(t *testing.T, path string) (string, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil)), n
}

// checkOutcome asserts the rule every fault must keep: exit 0 means the
// file under name is the whole body; any failure leaves no file there.
func checkOutcome(t *testing.T, r runResult, dir, name string, tg faultTarget) {
	t.Helper()
	path := filepath.Join(dir, name)
	if r.code == 0 {
		if sum, n := fileSHA256(t, path); sum != tg.sum {
			t.Errorf("exit 0 with %d of %d bytes (SHA-256 %s): a truncated download reported as done", n, tg.size, sum)
		}
		return
	}
	if fi, err := os.Lstat(path); err == nil {
		t.Errorf("exit %d, yet %s exists (%d bytes)", r.code, name, fi.Size())
	}
}

// mustFail asserts that the run failed as a broken or timed out
// connection (exit 5), between least and most after it started (r.took),
// leaving no file under name.
func mustFail(t *testing.T, r runResult, dir, name string, tg faultTarget, least, most time.Duration) {
	t.Helper()
	if r.code != exitConnect {
		t.Errorf("exit %d, want %d\n%s", r.code, exitConnect, tail(r.stderr))
	}
	if r.took < least || r.took > most {
		t.Errorf("failed after %v, want %v to %v", r.took, least, most)
	}
	checkOutcome(t, r, dir, name, tg)
}

// mustComplete fetches tg into a new directory with args and wants exit
// 0, the exact body, and a run of at least least (the toxic was on the
// path).
func mustComplete(t *testing.T, tg faultTarget, least time.Duration, args ...string) {
	t.Helper()
	dir := t.TempDir()
	r := runURLGet(t, dir, append(args, "-o", "out", tg.url)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, tail(r.stderr))
	}
	checkOutcome(t, r, dir, "out", tg)
	if r.took < least {
		t.Errorf("took %v, less than %v: the toxic was not on the path", r.took, least)
	}
}

// checkPart asserts that a failed download kept what it received in
// NAME.part, a prefix of the body, and said how to continue it; it returns
// the bytes held.
func checkPart(t *testing.T, r runResult, dir, name string, atMost int64) int64 {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(dir, name+".part"))
	if err != nil {
		t.Fatalf("exit %d without %s.part: %v\n%s", r.code, name, err, r.stderr)
	}
	if len(got) == 0 || int64(len(got)) > atMost {
		t.Errorf("%s.part holds %d bytes, want 1 to %d", name, len(got), atMost)
	}
	want := make([]byte, len(got))
	f, err := os.Open(filepath.Join(testbed.FixtureDir(), testbed.BigFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.ReadFull(f, want); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s.part (%d bytes) is not the start of the fixture (%v)", name, len(got), err)
	}
	if !strings.Contains(r.stderr, "-C -") {
		t.Errorf("the failure does not say to continue with -C -:\n%s", r.stderr)
	}
	return int64(len(got))
}

// resumeExact continues the download held in NAME.part with -C - through
// the clean proxies, and asserts it asked for the rest from the part's
// length and finished byte-exact.
func resumeExact(t *testing.T, c *toxiproxy.Client, dir, name string, held int64, tg faultTarget) {
	t.Helper()
	cure(t, c)
	r := runURLGet(t, dir, "-v", "-C", "-", "--idle-timeout", "10", "-o", name, tg.url)
	if r.code != 0 {
		t.Fatalf("-C -: exit %d\n%s", r.code, tail(r.stderr))
	}
	checkOutcome(t, r, dir, name, tg)
	if mark := fmt.Sprintf("%s%d", tg.resumeMark, held); !strings.Contains(r.stderr, mark) {
		t.Errorf("-C - did not continue from the part's %d bytes (no %q in the trace):\n%s", held, mark, tail(r.stderr))
	}
	if _, err := os.Lstat(filepath.Join(dir, name+".part")); err == nil {
		t.Errorf("%s.part left after the download completed", name)
	}
}

// tail is the end of a long trace, for messages.
func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// TestFaultCutNeverDone closes or resets the body's connection after n
// bytes, at points from the first byte to well inside the body, and wants
// each run to fail with exit 5 and no file under the final name, noticing
// the cut itself: well before --idle-timeout 30 would end a run that
// missed it. The FTP control connection is cut too (in the greeting and
// the login).
func TestFaultCutNeverDone(t *testing.T) {
	c := toxics(t)
	targets := append(withBig(bigTargets()), faultTarget{name: "ftp-control",
		url:  toxiURL("ftp", testbed.ToxiFTPHost, testbed.ToxiFTPPort, "/"+testbed.BigFile),
		data: []string{testbed.ToxiFTP}, cuts: []int64{1, 100}, framed: true,
		sum: testbed.BigFileSHA256, size: testbed.BigFileSize})
	for _, tg := range append(targets, articleTarget(t)) {
		for _, rst := range []bool{false, true} {
			if !rst && !tg.framed {
				continue
			}
			for _, n := range tg.cuts {
				kind, tx := "close", cutAfter(n)
				if rst {
					kind, tx = "reset", resetAfter(n)
				}
				t.Run(fmt.Sprintf("%s/%s-after-%d", tg.name, kind, n), func(t *testing.T) {
					poison(t, c, tg.data, tx...)
					dir := t.TempDir()
					r := runURLGet(t, dir, "--idle-timeout", "30", "-o", "out", tg.url)
					mustFail(t, r, dir, "out", tg, 0, 20*time.Second)
				})
			}
		}
	}
}

// TestFaultCutResumes cuts a 64 MiB download after 20 MiB, over HTTP and
// over FTP's data connection, with and without -C - on the first run:
// each keeps the bytes received in NAME.part, and -C - then continues from
// exactly there to the whole file.
func TestFaultCutResumes(t *testing.T) {
	c := toxics(t)
	const limit = 20 << 20
	for _, tg := range withBig(bigTargets()) {
		if !tg.resumes {
			continue
		}
		for _, first := range [][]string{nil, {"-C", "-"}} {
			t.Run(tg.name+"/"+strings.Join(append([]string{"first run"}, first...), " "), func(t *testing.T) {
				poison(t, c, tg.data, cutAfter(limit)...)
				dir := t.TempDir()
				r := runURLGet(t, dir, append(first, "--idle-timeout", "30", "-o", "big.bin", tg.url)...)
				mustFail(t, r, dir, "big.bin", tg, 0, 20*time.Second)
				held := checkPart(t, r, dir, "big.bin", limit)
				resumeExact(t, c, dir, "big.bin", held, tg)
			})
		}
	}
}

// TestFaultRetryCompletes cuts every connection after 24 MiB for good: a
// 64 MiB download completes with --retry 3 only if each try continues
// from what the ones before received (three tries hold 72 MiB), and with
// --retry 1 it fails, keeping both tries' bytes in NAME.part.
func TestFaultRetryCompletes(t *testing.T) {
	c := toxics(t)
	const limit = 24 << 20
	for _, tg := range withBig(bigTargets()) {
		if !tg.resumes {
			continue
		}
		t.Run(tg.name, func(t *testing.T) {
			poison(t, c, tg.data, cutAfter(limit)...)
			dir := t.TempDir()
			r := runURLGet(t, dir, "-v", "--retry", "3", "--retry-delay", "0.1", "--idle-timeout", "10", "-o", "big.bin", tg.url)
			if r.code != 0 {
				t.Fatalf("--retry 3: exit %d\n%s", r.code, tail(r.stderr))
			}
			checkOutcome(t, r, dir, "big.bin", tg)
			if n := strings.Count(r.stderr, tg.resumeMark); n < 2 {
				t.Errorf("%d tries continued with %q, want at least 2", n, tg.resumeMark)
			}
			if _, err := os.Lstat(filepath.Join(dir, "big.bin.part")); err == nil {
				t.Error("big.bin.part left after the download completed")
			}

			r = runURLGet(t, dir, "--retry", "1", "--retry-delay", "0.1", "--idle-timeout", "30", "-o", "again.bin", tg.url)
			mustFail(t, r, dir, "again.bin", tg, 0, 30*time.Second)
			if held := checkPart(t, r, dir, "again.bin", 2*limit); held <= limit {
				t.Errorf("again.bin.part holds %d bytes: the retry did not add to the first try's", held)
			}
		})
	}
}

// TestFaultSilentPeer: a server that never answers the request (the
// connection stays open) must fail at --idle-timeout 2 — not before, and
// within a few seconds after (the slack is for a loaded machine) — and not
// with an empty file reported as done.
func TestFaultSilentPeer(t *testing.T) {
	c := toxics(t)
	for _, tg := range smallTargets(t) {
		t.Run(tg.name, func(t *testing.T) {
			poison(t, c, tg.control, swallow())
			dir := t.TempDir()
			r := runURLGet(t, dir, "--idle-timeout", "2", "-o", "out", tg.url)
			mustFail(t, r, dir, "out", tg, 1900*time.Millisecond, idleSlack+2*time.Second)
		})
	}
}

// TestFaultStallMidBody lets a 64 MiB body drip at 2 MB/s, then silences
// the connection once a megabyte has arrived: the run must fail within
// --idle-timeout 2 of the stall, keep a consistent NAME.part where the
// scheme can continue it, and -C - must then complete it byte-exact.
func TestFaultStallMidBody(t *testing.T) {
	c := toxics(t)
	for _, tg := range withBig(bigTargets()) {
		t.Run(tg.name, func(t *testing.T) {
			dir := t.TempDir()
			r := stallMidBody(t, c, tg, dir)
			if tg.resumes {
				held := checkPart(t, r, dir, "big.bin", tg.size)
				resumeExact(t, c, dir, "big.bin", held, tg)
			}
		})
	}
}

// stallMidBody runs urlget with --idle-timeout 2 and args on tg into
// dir/big.bin, its body dripping at 2 MB/s, silences the connection once
// a megabyte has arrived, and wants the run to fail within the idle
// timeout of the stall (r.took is measured from it).
func stallMidBody(t *testing.T, c *toxiproxy.Client, tg faultTarget, dir string, args ...string) runResult {
	t.Helper()
	poison(t, c, tg.data, drip(2048))
	wait := startURLGet(t, dir, append(args, "--idle-timeout", "2", "-o", "big.bin", tg.url)...)
	if !waitForBytes(dir, 1<<20, 20*time.Second) {
		r := wait()
		t.Fatalf("no megabyte arrived in 20 s; exit %d\n%s", r.code, r.stderr)
	}
	// For FTP that is a hundred API calls: the stall has begun on the
	// data connection's proxy once they are done.
	poison(t, c, tg.data, stall())
	stalled := time.Now()
	r := wait()
	r.took = time.Since(stalled) // want about 2s (--idle-timeout 2)
	mustFail(t, r, dir, "big.bin", tg, 0, idleSlack+2*time.Second)
	return r
}

// waitForBytes waits until a file in dir (whatever its name) holds n
// bytes, for limit at most.
func waitForBytes(dir string, n int64, limit time.Duration) bool {
	return await.Within(limit, func() bool {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if fi, err := e.Info(); err == nil && fi.Size() >= n {
				return true
			}
		}
		return false
	})
}

// TestFaultSlowDrip: a peer that sends steadily but slowly is alive — a
// reply dripping at 1 KB/s (100 bytes every 100 ms) for longer than
// --idle-timeout 1.5 completes — and --max-time bounds it: a 64 MiB body
// at 512 KB/s with --max-time 3 fails at 3 s with its bytes kept, and
// -C - completes it.
func TestFaultSlowDrip(t *testing.T) {
	c := toxics(t)
	// gophernicus's root menu: 2,081 bytes, so 2 s at 1 KB/s.
	menu := faultTarget{name: "gopher-menu", url: toxiURL("gopher", testbed.Host, testbed.ToxiGopherPort, "/1/"),
		data: []string{testbed.ToxiGopher}}
	menu.sum, menu.size = directSHA256(t, toxiURL("gopher", testbed.Host, testbed.GophernicusPort, "/1/"))
	for _, tg := range []faultTarget{articleTarget(t), menu} {
		t.Run("alive/"+tg.name, func(t *testing.T) {
			poison(t, c, tg.data, drip(1))
			mustComplete(t, tg, 1500*time.Millisecond, "--idle-timeout", "1.5")
		})
	}
	for _, tg := range withBig(bigTargets()) {
		t.Run("max-time/"+tg.name, func(t *testing.T) {
			poison(t, c, tg.data, drip(512))
			dir := t.TempDir()
			r := runURLGet(t, dir, "--max-time", "3", "--idle-timeout", "1", "-o", "big.bin", tg.url)
			mustFail(t, r, dir, "big.bin", tg, 2900*time.Millisecond, idleSlack+3*time.Second)
			if tg.resumes {
				held := checkPart(t, r, dir, "big.bin", 4*512<<10)
				resumeExact(t, c, dir, "big.bin", held, tg)
			}
		})
	}
}

// TestFaultLatency delays every piece of every server's data by 250 ms
// (±50), on FTP's control and data connections alike: each download still
// completes byte-exact under --idle-timeout 2, and takes at least the delay.
func TestFaultLatency(t *testing.T) {
	c := toxics(t)
	for _, tg := range smallTargets(t) {
		t.Run(tg.name, func(t *testing.T) {
			poison(t, c, tg.data, delay(250))
			if tg.control[0] != tg.data[0] {
				poison(t, c, tg.control, delay(250))
			}
			mustComplete(t, tg, 200*time.Millisecond, "--idle-timeout", "2")
		})
	}
}
