//go:build integration

package integration

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/transport"
)

// fixturePaths is every file, directory and link of the host's fixture
// tree by its slash path, less what drop says to leave out, and less
// what is inside ScratchDir (which other tests change while they run).
func fixturePaths(t *testing.T, drop func(rel string) bool) []string {
	t.Helper()
	root := testbed.FixtureDir()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case strings.HasPrefix(rel, testbed.ScratchDir+"/"):
			return fs.SkipDir
		case drop != nil && drop(rel):
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fsOfURL is the FS of url through a Client as the urlget command makes
// one.
func fsOfURL(t *testing.T, url string) *fetch.FS {
	t.Helper()
	fsys, err := mirrorClient(io.Discard).FS(context.Background(), url)
	if err != nil {
		t.Fatalf("FS(%s): %v", url, err)
	}
	return fsys
}

// fstestAllowing runs fstest.TestFS on fsys and fails the test on every
// error it reports but those about the names in dangling (links whose
// target the server cannot reach, which fail Open and Stat with
// fs.ErrNotExist as os.DirFS's would) and about ScratchDir (which other
// tests change meanwhile). It returns the errors allowed, for the log.
func fstestAllowing(t *testing.T, fsys fs.FS, expected []string, dangling ...string) []string {
	t.Helper()
	err := fstest.TestFS(fsys, expected...)
	if err == nil {
		return nil
	}
	var all []error
	if j, ok := errors.Unwrap(err).(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	} else {
		all = []error{err}
	}
	var allowed []string
	for _, e := range all {
		text := e.Error()
		ok := strings.HasPrefix(text, testbed.ScratchDir+"/")
		for _, name := range dangling {
			ok = ok || strings.HasPrefix(text, name+": ") && errors.Is(e, fs.ErrNotExist)
		}
		if !ok {
			t.Errorf("fstest: %v", e)
			continue
		}
		allowed = append(allowed, text)
	}
	return allowed
}

// TestFSFstestFTP runs the standard library's fstest.TestFS on the FS of
// each FTP server's anonymous root, the fixture tree (2000 files in many/
// and the 64 MiB file included), expecting every path of it. The
// fixture's outside-link points at /etc/hostname, and the servers differ
// on it: vsftpd lists it (LIST) as a link that does not resolve inside
// its chroot, so it is an fs.ModeSymlink entry whose Open fails with
// fs.ErrNotExist, as os.DirFS's would (the one error fstest reports);
// proftpd's MLSD leaves the dangling link out; pure-ftpd's MLSD lists it
// and the server resolves it. fs.Sub of a directory is tested apart, as
// fstest skips it after an error.
func TestFSFstestFTP(t *testing.T) {
	for _, s := range []struct {
		service  string
		port     int
		listed   bool // outside-link is in the root's listing
		dangling bool // and does not resolve
	}{
		{testbed.Vsftpd, testbed.VsftpdPort, true, true},
		{testbed.Proftpd, testbed.ProftpdPort, false, false},
		{testbed.Pureftpd, testbed.PureftpdPort, true, false},
	} {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			want := fixturePaths(t, func(rel string) bool { return rel == testbed.OutsideLink && !s.listed })
			fsys := fsOfURL(t, fmt.Sprintf("ftp://%s/", testbed.Addr(s.port)))
			allowed := fstestAllowing(t, fsys, want, testbed.OutsideLink)
			if s.dangling != (len(allowed) == 1) || len(allowed) > 1 {
				t.Errorf("fstest's errors: %q; want one (outside-link dangling): %v", allowed, s.dangling)
			}
			t.Logf("fstest on %d paths; errors allowed: %q", len(want), allowed)
			fi, err := fsys.Lstat(testbed.OutsideLink)
			if s.listed && (err != nil || fi.Mode().Type() != fs.ModeSymlink) {
				t.Errorf("Lstat(outside-link) = %v, %v; want a symbolic link", fi, err)
			}
			if target, err := fsys.ReadLink(testbed.OutsideLink); s.listed && (target != testbed.OutsideLinkTarget || err != nil) {
				t.Errorf("ReadLink(outside-link) = %q, %v", target, err)
			}
			gone := s.dangling || !s.listed
			if _, err := fsys.Stat(testbed.OutsideLink); gone != errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Stat(outside-link) = %v; want fs.ErrNotExist: %v", err, gone)
			}
			sub, err := fs.Sub(fsys, "names")
			if err != nil {
				t.Fatal(err)
			}
			if err := fstest.TestFS(sub, "a #b;c.txt", "café.txt", "percent%20literal.txt"); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestFSFstestFile runs fstest.TestFS on the FS of the fixture tree
// through a file: URL: the host resolves outside-link.
func TestFSFstestFile(t *testing.T) {
	want := fixturePaths(t, nil)
	fsys := fsOfURL(t, "file://"+filepath.ToSlash(testbed.FixtureDir())+"/")
	if allowed := fstestAllowing(t, fsys, want); len(allowed) > 0 {
		t.Logf("errors in %s allowed: %q", testbed.ScratchDir, allowed)
	}
}

// TestFSFstestNginx runs fstest.TestFS on the FS of nginx's index pages
// of the fixture tree. nginx serves site/index.html for site/ instead of
// an index, so site is a directory whose page links only outside it:
// empty. outside-link is a file to nginx (it follows it in its own
// container).
func TestFSFstestNginx(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	want := fixturePaths(t, func(rel string) bool { return rel == "site/index.html" })
	fsys := fsOfURL(t, fmt.Sprintf("http://%s/", testbed.Addr(testbed.HTTPPort)))
	if allowed := fstestAllowing(t, fsys, want); len(allowed) > 0 {
		t.Logf("errors in %s allowed: %q", testbed.ScratchDir, allowed)
	}
	if list, err := fsys.ReadDir("site"); len(list) != 0 || err != nil {
		t.Errorf("site/ = %v, %v; want empty (its index.html links only outside it)", list, err)
	}
}

// gophernicusName is how gophernicus spells a name in a selector of a
// menu it makes: a space, "#", "%" and every byte beyond ASCII as "#"
// and three octal digits.
func gophernicusName(rel string) string {
	var b strings.Builder
	for i := 0; i < len(rel); i++ {
		switch c := rel[i]; {
		case c == ' ' || c == '#' || c == '%' || c >= 0x80:
			fmt.Fprintf(&b, "#%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TestFSFstestGopher runs fstest.TestFS on the FS of gophernicus's
// menus: the root menu (a gophermap: its own items first, then the
// fixture tree). An item's name is its selector's last segment as the
// server spells it (gophernicus writes "dir#040with#040space"); the
// menu's info lines, its search (type 7), telnet, error and h URL: items,
// its items deeper in the tree (/text/lf.txt) and on another server
// (pygopherd) are not in the root directory. The menu of
// "/dir#040with#040space/" gives its item's selector with a plain space
// ("/dir with space/inside.txt"), which is not below the URL listed, so
// that directory is empty. cgi-bin/search is the search script as a
// document. gophernicus's menu of
// many/ holds only part of its 2000 files (1022 here), so they are not
// expected one by one.
func TestFSFstestGopher(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	want := []string{"cgi-bin", "cgi-bin/search"}
	drop := func(rel string) bool { return rel == "dir with space/inside.txt" || strings.HasPrefix(rel, "many/") }
	for _, p := range fixturePaths(t, drop) {
		want = append(want, gophernicusName(p))
	}
	fsys := fsOfURL(t, fmt.Sprintf("gopher://%s/", testbed.Addr(testbed.GophernicusPort)))
	if allowed := fstestAllowing(t, fsys, want); len(allowed) > 0 {
		t.Logf("errors in %s allowed: %q", testbed.ScratchDir, allowed)
	}
	b, err := fs.ReadFile(fsys, "text/lf.txt")
	if err != nil || string(b) != testbed.FixtureFiles["text/lf.txt"] {
		t.Errorf("text/lf.txt = %q, %v", b, err)
	}
}

// TestFSFstestProspero runs fstest.TestFS on the FS of dirsrv's virtual
// directory: its EXTERNAL links to vsftpd and gophernicus (links, which
// Prospero cannot Stat: Stat takes them for files, and Open retrieves
// through them), its DIRECTORY link to the native tree (whose names keep
// a CR LF: valid fs path elements), and its FILE link to the second
// server.
func TestFSFstestProspero(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	want := []string{"ftp-readme", "gopher-lf", "with space.txt", "readme-elsewhere", "pfs", "pfs/README.txt",
		"pfs/big.txt", "pfs/binary.bin", "pfs/empty.txt", "pfs/emptydir", "pfs/it's quoted.txt", "pfs/lines\r\nfile.txt",
		"pfs/sub", "pfs/sub/deeper", "pfs/sub/deeper/x.txt", "pfs/sub/nested.txt", "pfs/with space.txt"}
	fsys := fsOfURL(t, fmt.Sprintf("prospero://%s//virtual/root", testbed.Addr(testbed.ProsperoPort)))
	if err := fstest.TestFS(fsys, want...); err != nil {
		t.Error(err)
	}
	for name, content := range map[string]string{
		"gopher-lf":      testbed.FixtureFiles["text/lf.txt"],
		"with space.txt": testbed.FixtureFiles["names/file with space.txt"],
		"ftp-readme":     testbed.FixtureFiles["README.txt"],
	} {
		if b, err := fs.ReadFile(fsys, name); string(b) != content || err != nil {
			t.Errorf("%s: %q, %v; want %q", name, b, err, content)
		}
	}
}

// TestFSWalkDirFTP walks vsftpd's tree with fs.WalkDir and counts its
// files, as many as the fixture tree holds.
func TestFSWalkDirFTP(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	want := 0
	root := testbed.FixtureDir()
	for _, p := range fixturePaths(t, func(rel string) bool { return rel == testbed.ScratchDir }) {
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil && fi.Mode().IsRegular() {
			want++
		}
	}
	fsys := fsOfURL(t, fmt.Sprintf("ftp://%s/", testbed.Addr(testbed.VsftpdPort)))
	got := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p == testbed.ScratchDir:
			return fs.SkipDir
		case d.Type().IsRegular():
			got++
		}
		return nil
	})
	if err != nil || got != want || want < testbed.ManyFiles {
		t.Errorf("WalkDir: %d files, %v; want %d", got, err, want)
	}
}

// TestFSHTTPFileServerFTP serves vsftpd's tree with
// http.FileServer(http.FS(fsys)) and fetches the 64 MiB file, its last
// 100 bytes and a range of small.bin through it: the SHA-256 and the
// bytes of the fixture.
func TestFSHTTPFileServerFTP(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	var trace lockedBuffer
	fsys, err := mirrorClient(&trace).FS(context.Background(), fmt.Sprintf("ftp://%s/", testbed.Addr(testbed.VsftpdPort)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.FS(fsys)))
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/" + testbed.BigFile)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	n, err := io.Copy(h, resp.Body)
	resp.Body.Close()
	if sum := hex.EncodeToString(h.Sum(nil)); err != nil || resp.StatusCode != 200 || n != testbed.BigFileSize || sum != testbed.BigFileSHA256 {
		t.Errorf("%s: %d, %d bytes, %v, SHA-256 %s; want 200, %d bytes, %s", testbed.BigFile, resp.StatusCode, n, err, sum,
			testbed.BigFileSize, testbed.BigFileSHA256)
	}

	// The last 100 bytes: a seek the FTP server resumes at (REST), not a
	// transfer of 64 MiB read up to there.
	req, _ := http.NewRequest("GET", srv.URL+"/"+testbed.BigFile, nil)
	req.Header.Set("Range", "bytes=-100")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent || string(b) != string(bigFileTail(100)) || err != nil {
		t.Errorf("the last 100 bytes of %s: %d, %d bytes, %v", testbed.BigFile, resp.StatusCode, len(b), err)
	}
	if rest := fmt.Sprintf("REST %d", testbed.BigFileSize-100); !strings.Contains(trace.String(), rest) {
		t.Errorf("no %q in the trace: the seek did not resume", rest)
	}

	req, _ = http.NewRequest("GET", srv.URL+"/bin/small.bin", nil)
	req.Header.Set("Range", "bytes=100-199")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent || string(b) != string(testbed.SmallBin()[100:200]) || err != nil {
		t.Errorf("small.bin bytes 100-199: %d, %d bytes, %v", resp.StatusCode, len(b), err)
	}

	resp, err = http.Get(srv.URL + "/no/such/file")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a missing file: %d, want 404", resp.StatusCode)
	}
}

// bigFileTail is the last n bytes of testbed.BigFile (n <= 1024), from
// its SHA-256 blocks in counter mode.
func bigFileTail(n int) []byte {
	const block = sha256.Size
	var tail []byte
	in := []byte(testbed.BigFileSeed + "12345678")
	last := uint64(testbed.BigFileSize / block)
	for i := last - uint64((n+block-1)/block); i < last; i++ {
		binary.BigEndian.PutUint64(in[len(testbed.BigFileSeed):], i)
		sum := sha256.Sum256(in)
		tail = append(tail, sum[:]...)
	}
	return tail[len(tail)-n:]
}

// fsCountingDialer counts the connections dialed to one port.
type fsCountingDialer struct {
	*transport.Dialer
	port  int
	dials atomic.Int32
}

func (d *fsCountingDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	if port == d.port {
		d.dials.Add(1)
	}
	return d.Dialer.Dial(ctx, scheme, host, port)
}

// fsOpenSockets counts the sockets this process has open.
func fsOpenSockets(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count sockets: %v", err)
	}
	n := 0
	for _, fd := range fds {
		if l, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}

// TestFSCloseStopsTheTransferFTP reads files of vsftpd through the FS:
// a file read to its end gives the control connection back to the pool,
// so that one login serves them all (one dial of the control port); a
// file closed in the middle of the 64 MiB transfer stops it at once (the
// ftp handler aborts by closing the session, which costs the next file a
// login), and no goroutine or socket is left once the idle connections
// are closed.
func TestFSCloseStopsTheTransferFTP(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	c := mirrorClient(io.Discard)
	d := &fsCountingDialer{Dialer: c.Dialer.(*transport.Dialer), port: testbed.VsftpdPort}
	c.Dialer = d
	before, sockets := runtime.NumGoroutine(), fsOpenSockets(t)
	fsys, err := c.FS(context.Background(), fmt.Sprintf("ftp://%s/", testbed.Addr(testbed.VsftpdPort)))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bin/small.bin", "README.txt", "text/lf.txt", "bin/small.bin"} {
		if _, err := fs.ReadFile(fsys, name); err != nil {
			t.Fatal(err)
		}
	}
	if n := d.dials.Load(); n != 1 {
		t.Errorf("%d control connections dialed for four files read whole, want 1", n)
	}
	start := time.Now()
	for range 5 {
		f, err := fsys.Open(testbed.BigFile)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := io.ReadFull(f, make([]byte, 64<<10)); n != 64<<10 || err != nil {
			t.Fatalf("read %d bytes, %v", n, err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	if b, err := fs.ReadFile(fsys, "bin/small.bin"); string(b) != string(testbed.SmallBin()) || err != nil {
		t.Errorf("small.bin after the closes: %d bytes, %v", len(b), err)
	}
	c.CloseIdleConnections()
	// The goroutines of the closed connections end on their own time.
	await.Poll(func() bool { return runtime.NumGoroutine() <= before })
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before, %d after", before, after)
	}
	if after := fsOpenSockets(t); after > sockets {
		t.Errorf("%d sockets open before, %d after: a closed file left its connections open", sockets, after)
	}
	t.Logf("5 opens, reads of 64 KiB and closes of the 64 MiB file: %v; %d control connections in all", took, d.dials.Load())
}

// TestFSRootURLs: a directory URL without its "/" is the directory (nginx
// redirects /text to /text/, whose entries are below the URL it
// redirected to; FTP lists any URL as a directory), and a file's URL is
// no FS.
func TestFSRootURLs(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	testbed.Require(t, testbed.Vsftpd)
	web, ftp := "http://"+testbed.Addr(testbed.HTTPPort), "ftp://"+testbed.Addr(testbed.VsftpdPort)
	for _, tt := range []struct {
		url     string
		entries int // -1: FS fails
	}{
		{web + "/text", 6},
		{ftp + "/text", 6},
		{ftp + "/README.txt", -1},
		{web + "/README.txt", -1},
	} {
		fsys, err := mirrorClient(io.Discard).FS(context.Background(), tt.url)
		if tt.entries < 0 {
			if err == nil {
				t.Errorf("FS(%s) succeeded, want an error: a file is no directory", tt.url)
			}
			continue
		}
		if err != nil {
			t.Errorf("FS(%s): %v", tt.url, err)
			continue
		}
		if list, err := fs.ReadDir(fsys, "."); len(list) != tt.entries || err != nil {
			t.Errorf("FS(%s): %d entries, %v; want %d", tt.url, len(list), err, tt.entries)
		}
	}
}
