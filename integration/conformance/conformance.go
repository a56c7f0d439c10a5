// Package conformance is the one suite every scheme handler runs against
// every real server of its scheme, in the spirit of gocloud's drivertest and
// rclone's fstests: the same subtests, with the same fixture tree
// (integration/testbed), so that differences between servers and schemes
// show up as failures of a named subtest rather than as surprises in use.
//
// A scheme plugs a server in with one Target; Run does the rest. Subtests
// are independent and skip only for a capability the Target declares
// missing, never because a server is absent (testbed.Require fails in CI).
package conformance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Target is one server of one scheme, described for the suite.
type Target struct {
	// Name names the server in test output ("nginx", "vsftpd").
	Name string
	// URL returns the URL of the fixture at path p, a "/"-separated path
	// relative to the fixture root, not escaped.
	URL func(p string) string
	// SecretURL is like URL but carries credentials whose password is
	// Secret; nil when the scheme has none. The suite checks the password
	// never appears in any trace, note or error.
	SecretURL func(p string) string
	// Secret is the password SecretURL embeds.
	Secret string
	// DirURL returns the URL of the fixture directory at path p (which
	// ends in "/") where that differs from URL's (a gopher menu is item
	// type 1); nil means URL.
	DirURL func(p string) string
	// ListName maps a fixture's file name to the name its directory
	// listing gives it, where the server writes names its own way
	// (gophernicus escapes selectors as "#NNN", and a gopher entry is named
	// by its selector); nil means the same name.
	ListName func(name string) string
	// NotFoundCode is the server's reply code for a missing file (404,
	// 550), 0 when the protocol has none.
	NotFoundCode int
	// TLS configures the client for TLS targets (the test bed's CA).
	TLS *TLSConfig
	// EmptyIsNotFound says the protocol cannot tell an empty file from a
	// missing one: a WAIS server answers a retrieval of an empty
	// document's byte 0 as any range past a document's end, with the
	// diagnostic "Request out of range" and no text. EmptyFile then wants
	// the not-found error, naming that diagnostic.
	EmptyIsNotFound bool
	// Options are the scheme options the client is built with (an SSH
	// target's known hosts file); nil means the defaults.
	Options schemes.Options
}

// caps is what the target's scheme can do, as its Scheme declares: the
// suite reads capabilities, it does not assert interfaces.
func (tg Target) caps(t *testing.T) schemes.Caps {
	var c fetch.Client
	loc, err := c.Parse(tg.URL("README.txt"))
	if err != nil {
		t.Fatalf("target %s: %v", tg.Name, err)
	}
	return c.Caps(loc)
}

// namesDir is the fixtures of names/ by the names a listing gives them.
func (tg Target) namesDir() map[string]string {
	out := map[string]string{}
	for p, content := range testbed.FixtureFiles {
		name, ok := strings.CutPrefix(p, "names/")
		if !ok || strings.Contains(name, "/") {
			continue
		}
		if tg.ListName != nil {
			name = tg.ListName(name)
		}
		out[name] = content
	}
	return out
}

func (tg Target) dirURL(p string) string {
	if tg.DirURL != nil {
		return tg.DirURL(p)
	}
	return tg.URL(p)
}

// Run runs every subtest that applies to tg. A subtest for a capability the
// target declares missing is not run at all (and logged), rather than
// skipped, so a CI run has no skipped tests to explain.
func Run(t *testing.T, tg Target) {
	caps := tg.caps(t)
	always := func(Target) bool { return true }
	can := func(c schemes.Caps) func(Target) bool { return func(Target) bool { return caps.Has(c) } }
	tests := []struct {
		name    string
		applies func(Target) bool
		fn      func(*testing.T, Target)
	}{
		{"SmallFile", always, testSmallFile},
		{"EmptyFile", always, testEmptyFile},
		{"BigBinarySHA256", always, testBigBinary},
		{"NotFound", always, testNotFound},
		{"CancelBeforeDial", always, testCancelBeforeDial},
		{"CancelMidTransfer", always, testCancelMidTransfer},
		{"CancelAfterResponse", always, testCancelAfterResponse},
		{"DeadlineExceeded", always, testDeadline},
		{"Resume", can(schemes.Resumes), testResume},
		{"ResumeRuleStartsOverWhenNewer", can(schemes.Resumes), testResumeNewerRemote},
		{"List", can(schemes.Lists), testList},
		{"ListLocatorsFetch", can(schemes.Lists), testListLocators},
		{"ListLocatorsKeepPassword", func(tg Target) bool { return caps.Has(schemes.Lists) && tg.SecretURL != nil }, testListLocatorsSecret},
		{"Stat", can(schemes.Stats), testStat},
		{"OddNames", always, testOddNames},
		{"NoSecretInOutput", func(tg Target) bool { return tg.SecretURL != nil }, testNoSecret},
		{"Concurrent8", always, testConcurrent},
		{"UntrustedCertificate", func(tg Target) bool { return tg.TLS != nil }, testUntrustedCertificate},
	}
	for _, tc := range tests {
		if !tc.applies(tg) {
			t.Logf("%s: not applicable to %s", tc.name, tg.Name)
			continue
		}
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, tg) })
	}
}

// CountingDialer wraps a transport.Dialer and counts dials and open
// connections, so a test can prove "never dialed" and "nothing left open".
// Its StartTLS and DialDatagram are the wrapped Dialer's, and so are its
// TLS settings (set them on the wrapped Dialer: a fetch Client's TLS is
// for a *transport.Dialer only); datagram sockets count as dials and open
// connections too.
type CountingDialer struct {
	*transport.Dialer
	Dials, Open atomic.Int64
}

// NewCountingDialer returns a CountingDialer over a transport.Dialer with
// the timeouts every integration test uses.
func NewCountingDialer() *CountingDialer {
	return &CountingDialer{Dialer: &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second}}
}

// Dial dials through the wrapped dialer and counts the connection.
func (c *CountingDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	c.Dials.Add(1)
	return c.count(c.Dialer.Dial(ctx, scheme, host, port))
}

// DialDatagram dials through the wrapped dialer and counts the socket.
func (c *CountingDialer) DialDatagram(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	c.Dials.Add(1)
	return c.count(c.Dialer.DialDatagram(ctx, scheme, host, port))
}

// count counts conn as open until it is closed.
func (c *CountingDialer) count(conn net.Conn, err error) (net.Conn, error) {
	if err != nil {
		return nil, err
	}
	c.Open.Add(1)
	return &countedConn{Conn: conn, open: &c.Open}, nil
}

type countedConn struct {
	net.Conn
	open *atomic.Int64
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.Conn.Close()
}

// NetConn lets transport.ConnOf and crypto/tls see through the wrapper.
func (c *countedConn) NetConn() net.Conn { return c.Conn }

// env is one subtest's client with everything it printed.
type env struct {
	c      *fetch.Client
	dialer *CountingDialer
	out    *SyncBuffer // trace and notes
}

func newEnv(t *testing.T, tg Target) *env {
	out := &SyncBuffer{}
	d := NewCountingDialer()
	c := &fetch.Client{Dialer: d, Trace: transport.NewTrace(out), Notify: func(m string) { fmt.Fprintln(out, m) }}
	if tg.TLS != nil {
		d.Dialer.TLS = tg.TLS.config(t)
	}
	if tg.Options != nil {
		r, err := fetch.NewRegistry(fetch.Config{Options: tg.Options})
		if err != nil {
			t.Fatalf("target %s: %v", tg.Name, err)
		}
		c.Registry = r
	}
	t.Cleanup(c.CloseIdleConnections)
	return &env{c: c, dialer: d, out: out}
}

func (e *env) get(ctx context.Context, raw string) ([]byte, *fetch.Response, error) {
	resp, err := e.c.Get(ctx, raw)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return b, resp, err
}

func fixture(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testbed.FixtureDir(), filepath.FromSlash(p)))
	if err != nil {
		t.Fatalf("fixture %s: %v (run integration/stack.sh up, which generates the tree)", p, err)
	}
	return b
}

func testSmallFile(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	for _, p := range []string{"bin/small.bin", "README.txt", "nested/level1/level2/level3/deep.txt"} {
		got, _, err := e.get(context.Background(), tg.URL(p))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if want := fixture(t, p); !bytes.Equal(got, want) {
			t.Errorf("%s: got %d bytes %q…, want %d bytes", p, len(got), clip(got), len(want))
		}
	}
}

func testEmptyFile(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	for _, p := range []string{"text/empty.txt", "bin/empty.bin"} {
		got, resp, err := e.get(context.Background(), tg.URL(p))
		if tg.EmptyIsNotFound {
			if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(fmt.Sprint(err), "empty") {
				t.Errorf("%s: %v; want not found, saying the document may be empty", p, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(got) != 0 || (resp.Size != 0 && resp.Size != -1) {
			t.Errorf("%s: %d bytes, size %d; want empty", p, len(got), resp.Size)
		}
	}
}

func testBigBinary(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	dest := filepath.Join(t.TempDir(), "big.bin")
	res, err := e.c.Download(context.Background(), tg.URL(testbed.BigFile), dest, fetch.DownloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Size != testbed.BigFileSize {
		t.Errorf("size %d, want %d", res.Size, testbed.BigFileSize)
	}
	if sum := fileSHA256(t, dest); sum != testbed.BigFileSHA256 {
		t.Errorf("SHA-256 %s, want %s", sum, testbed.BigFileSHA256)
	}
}

func testNotFound(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	_, _, err := e.get(context.Background(), tg.URL("no/such/file.txt"))
	var se *schemes.Error
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *schemes.Error", err)
	}
	if se.Kind != schemes.KindNotFound || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("kind %v (%v), want not_found matching fs.ErrNotExist", se.Kind, err)
	}
	if se.Code != tg.NotFoundCode {
		t.Errorf("code %d, want %d", se.Code, tg.NotFoundCode)
	}
	if se.Kind.ExitCode() != 3 {
		t.Errorf("exit code %d, want 3", se.Kind.ExitCode())
	}
}

func testCancelBeforeDial(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := e.get(ctx, tg.URL("README.txt"))
	if !errors.Is(err, context.Canceled) && schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err = %v, want canceled", err)
	}
	if n := e.dialer.Dials.Load(); n != 0 {
		t.Errorf("dialed %d times after cancel", n)
	}
}

// testCancelAfterResponse: a small file that has (most likely) arrived
// whole by the time the response is returned must still not be read
// after its context was canceled: the caller asked to stop, and a body
// that then reads to the end would make the fetch look successful.
func testCancelAfterResponse(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := e.c.Get(ctx, tg.URL("README.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	_, err = io.ReadAll(resp.Body)
	if !errors.Is(err, context.Canceled) || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("read after cancel: %v (kind %v), want a cancellation", err, schemes.KindOf(err))
	}
}

func testCancelMidTransfer(t *testing.T, tg Target) {
	cancelMid(t, func() *env { return newEnv(t, tg) }, tg.URL(testbed.BigFile), 1<<20)
}

// cancelMid gets raw with the client newE makes, reads its first bytes,
// cancels, and checks that the body's read then fails within 10 s and
// that no connection or goroutine is left behind.
func cancelMid(t *testing.T, newE func() *env, raw string, first int) {
	before := runtime.NumGoroutine()
	e := newE()
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := e.c.Get(ctx, raw)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, first)); err != nil {
		cancel()
		t.Fatalf("first %d bytes: %v", first, err)
	}
	cancel()
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("body read to the end after cancel")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("read did not return within 10s of cancel")
	}
	resp.Body.Close()
	e.c.CloseIdleConnections()
	waitFor(t, "connections closed", func() bool { return e.dialer.Open.Load() == 0 })
	waitFor(t, "goroutines gone", func() bool { return runtime.NumGoroutine() <= before })
}

func testDeadline(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	resp, err := e.c.Get(ctx, tg.URL(testbed.BigFile))
	if err == nil {
		defer resp.Body.Close()
		// A first read, and the deadline passes mid-transfer (waited
		// for, rather than reading slowly until it has): the body read
		// on fails with it, after what was buffered at most, instead
		// of coming to its end.
		if _, err = resp.Body.Read(make([]byte, 32<<10)); err == nil {
			<-ctx.Done()
			var n int64
			if n, err = io.Copy(io.Discard, resp.Body); err == nil {
				t.Fatalf("the body was read to its end (%d bytes after the deadline passed), want deadline exceeded", n)
			}
		}
	}
	if !errors.Is(err, context.DeadlineExceeded) && schemes.KindOf(err) != schemes.KindTimeout {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
}

// testResume continues a partial copy that another tool made (head -c):
// it carries no record, and the remote is not newer than it, so the one
// resume rule continues it.
func testResume(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	dest := filepath.Join(t.TempDir(), "big.bin")
	const held = 10 << 20
	headC(t, testbed.BigFile, held, dest+fetch.PartSuffix)
	res, err := e.c.Download(context.Background(), tg.URL(testbed.BigFile), dest, fetch.DownloadOptions{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Offset != held || res.Bytes != testbed.BigFileSize-held {
		t.Errorf("resumed at %d receiving %d bytes; want %d and %d\n%s", res.Offset, res.Bytes, held, testbed.BigFileSize-held, e.out)
	}
	if sum := fileSHA256(t, dest); sum != testbed.BigFileSHA256 {
		t.Errorf("SHA-256 %s, want %s", sum, testbed.BigFileSHA256)
	}
}

// testResumeNewerRemote: a foreign partial copy older than the remote is
// not continued: the remote may have changed since, so it starts over.
func testResumeNewerRemote(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	dest := filepath.Join(t.TempDir(), "big.bin")
	part := dest + fetch.PartSuffix
	headC(t, testbed.BigFile, 1<<20, part)
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) // before the fixtures' time
	if err := os.Chtimes(part, old, old); err != nil {
		t.Fatal(err)
	}
	res, err := e.c.Download(context.Background(), tg.URL(testbed.BigFile), dest, fetch.DownloadOptions{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Offset != 0 || res.Bytes != testbed.BigFileSize {
		t.Errorf("resumed at %d receiving %d bytes; want the whole file (%d) sent again", res.Offset, res.Bytes, testbed.BigFileSize)
	}
	if !strings.Contains(e.out.String(), "newer than the partial copy") {
		t.Errorf("the trace does not say why it started over:\n%s", e.out)
	}
	if sum := fileSHA256(t, dest); sum != testbed.BigFileSHA256 {
		t.Errorf("SHA-256 %s, want %s", sum, testbed.BigFileSHA256)
	}
}

// headC writes the first n bytes of fixture p to dest with head -c, as a
// user's interrupted download by another tool would leave them.
func headC(t *testing.T, p string, n int64, dest string) {
	t.Helper()
	out, err := os.Create(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command("head", "-c", strconv.FormatInt(n, 10), filepath.Join(testbed.FixtureDir(), filepath.FromSlash(p)))
	cmd.Stdout = out
	if err := cmd.Run(); err != nil {
		t.Fatalf("head -c: %v", err)
	}
}

// list lists the directory at raw and returns its entries, failing the
// test unless the listing ends whole.
func (e *env) list(t *testing.T, tg Target, raw string) []schemes.Entry {
	t.Helper()
	resp, err := e.c.List(context.Background(), raw)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	if err != nil {
		t.Fatalf("listing %s: %v", raw, err)
	}
	return entries
}

// testList: the names/ directory lists every fixture in it, as a file,
// under its own name (space, "#", ";", "%" included), once, with its size
// and time where the server tells them, within the listing's precision.
func testList(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	entries := e.list(t, tg, tg.dirURL("names/"))
	got := map[string]schemes.Entry{}
	for _, ent := range entries {
		if ent.Name == "" {
			continue // info lines, raw lines
		}
		if _, dup := got[ent.Name]; dup {
			t.Errorf("%q listed twice", ent.Name)
		}
		got[ent.Name] = ent
	}
	fixtureTime := testbed.FixtureModTime()
	for name, content := range tg.namesDir() {
		ent, ok := got[name]
		if !ok {
			t.Errorf("listing lacks %q (has %v)", name, names(entries))
			continue
		}
		if ent.Kind != schemes.EntryFile && ent.Kind != schemes.EntryUnknown {
			t.Errorf("%q: kind %s, want file", name, ent.Kind)
		}
		if ent.Size >= 0 && ent.Size != int64(len(content)) {
			t.Errorf("%q: size %d, want %d", name, ent.Size, len(content))
		}
		if !ent.ModTime.IsZero() && !ent.SameTime(fixtureTime, 0) {
			t.Errorf("%q: time %v (precision %v), want %v", name, ent.ModTime, ent.Precision, fixtureTime)
		}
		if ent.ModTime.IsZero() != (ent.Precision == 0) {
			t.Errorf("%q: time %v with precision %v", name, ent.ModTime, ent.Precision)
		}
	}
}

func names(entries []schemes.Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name)
	}
	slices.Sort(out)
	return out
}

// testListLocators: every file entry's Locator fetches the same bytes as
// the fixture's URL typed by hand.
func testListLocators(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	checkLocators(t, e, tg, e.list(t, tg, tg.dirURL("names/")))
}

// testListLocatorsSecret: listing a URL with a password gives Locators
// that keep it (so they fetch), while their redacted form hides it.
func testListLocatorsSecret(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	dir := tg.SecretURL("names/")
	if tg.DirURL != nil {
		t.Fatalf("target %s has both DirURL and SecretURL: the suite cannot list with a password", tg.Name)
	}
	entries := e.list(t, tg, dir)
	n := checkLocators(t, e, tg, entries)
	for _, ent := range entries {
		if ent.Locator == nil {
			continue
		}
		if !strings.Contains(ent.Locator.String(), tg.Secret) || strings.Contains(ent.Locator.Redacted(), tg.Secret) {
			t.Errorf("%q: Locator %s should keep the password, its Redacted form hide it", ent.Name, ent.Locator.Redacted())
		}
	}
	if n == 0 {
		t.Fatal("no entry was fetched")
	}
	if strings.Contains(e.out.String(), tg.Secret) {
		t.Errorf("password in the trace:\n%s", e.out)
	}
}

// checkLocators fetches every file entry of names/ by its Locator and
// compares it with the fixture; it returns how many it fetched.
func checkLocators(t *testing.T, e *env, tg Target, entries []schemes.Entry) int {
	t.Helper()
	n := 0
	files := tg.namesDir()
	for _, ent := range entries {
		want, ok := files[ent.Name]
		if !ok || ent.Locator == nil || ent.Kind != schemes.EntryFile {
			continue
		}
		resp, err := e.c.Do(context.Background(), &fetch.Request{URL: ent.Locator})
		if err != nil {
			t.Errorf("%q: %s: %v", ent.Name, ent.Locator.Redacted(), err)
			continue
		}
		got, err := io.ReadAll(resp.Body)
		resp.Close()
		if err != nil || string(got) != want {
			t.Errorf("%q: Locator %s gave %q (%v), want %q", ent.Name, ent.Locator.Redacted(), clip(got), err, want)
		}
		n++
	}
	if n == 0 {
		t.Errorf("no file entry of names/ had a Locator: %v", names(entries))
	}
	return n
}

// testStat: Stat describes a file without fetching it, and a missing one
// is not found.
func testStat(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	ent, err := e.c.Stat(context.Background(), tg.URL("README.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := fixture(t, "README.txt")
	if ent.Kind != schemes.EntryFile || ent.Size != int64(len(want)) {
		t.Errorf("Stat README.txt: kind %s size %d; want file, %d", ent.Kind, ent.Size, len(want))
	}
	if ent.ModTime.IsZero() || !ent.SameTime(testbed.FixtureModTime(), 0) {
		t.Errorf("Stat README.txt: time %v (precision %v), want %v", ent.ModTime, ent.Precision, testbed.FixtureModTime())
	}
	if _, err := e.c.Stat(context.Background(), tg.URL("no/such/file.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a missing file: %v, want not found", err)
	}
}

func testOddNames(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	for p, want := range testbed.FixtureFiles {
		if !strings.HasPrefix(p, "names/") && !strings.HasPrefix(p, "dir with space/") {
			continue
		}
		got, _, err := e.get(context.Background(), tg.URL(p))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s: got %q, want %q", p, got, want)
		}
	}
}

func testNoSecret(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	var msgs []string
	if _, _, err := e.get(context.Background(), tg.SecretURL("README.txt")); err != nil {
		msgs = append(msgs, err.Error())
	}
	if _, _, err := e.get(context.Background(), tg.SecretURL("no/such/file.txt")); err != nil {
		msgs = append(msgs, err.Error(), fmt.Sprintf("%+v", err))
	} else {
		t.Error("missing file fetched without error")
	}
	all := e.out.String() + strings.Join(msgs, "\n")
	if strings.Contains(all, tg.Secret) {
		t.Fatalf("password %q appears in output:\n%s", tg.Secret, all)
	}
	if !strings.Contains(all, schemes.Redacted) {
		t.Errorf("no redaction marker in output; was the credential used at all?\n%s", all)
	}
}

func testConcurrent(t *testing.T, tg Target) {
	concurrent8(t, newEnv(t, tg), func(i int) (string, string) {
		return tg.URL(testbed.ManyFileName(i)), testbed.ManyFileContent(i)
	})
}

// concurrent8 gets eight URLs at once with e's client, query i (1 to 8)
// giving the URL and the bytes it must return.
func concurrent8(t *testing.T, e *env, query func(i int) (raw, want string)) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 1; i <= 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, want := query(i)
			got, _, err := e.get(context.Background(), raw)
			if err == nil && string(got) != want {
				err = fmt.Errorf("query %d (%s): got %q", i, raw, got)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func fileSHA256(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// waitFor polls cond, bounded (await.Timeout): resources are released by
// other goroutines, so there is no exact moment to check. It fails the
// test (t.Errorf) but lets it go on.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !await.Poll(cond) {
		t.Errorf("%s: not within %v", what, await.Timeout)
	}
}

func clip(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

var errLimit = errors.New("limit reached")

type limitWriter struct {
	w io.Writer
	n int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errLimit
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.w.Write(p)
	l.n -= int64(n)
	if err == nil && l.n == 0 {
		err = errLimit
	}
	return n, err
}

// SyncBuffer is a bytes.Buffer safe for the concurrent writes of a trace.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
