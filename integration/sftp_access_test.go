//go:build integration

package integration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
)

// sftpFetchClient is a Client for the sftp service with its known hosts.
func sftpFetchClient(t *testing.T) *fetch.Client {
	t.Helper()
	testbed.Require(t, testbed.SFTP)
	t.Setenv("SSH_AUTH_SOCK", "")
	c := sftpClient(sftpKnownHosts(t, sftpHostKey(t)))(io.Discard)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// sftpAliceAt is the URL of p under the fixture tree logged in as alice
// without her password, as gateway pages write it.
func sftpAliceAt(p string) string {
	return fmt.Sprintf("sftp://%s@%s/srv/fixtures/%s", testbed.AliceUser, testbed.Addr(testbed.SFTPPort), p)
}

// TestSFTPGateway: alice's sftp URL with her password typed into the
// gateway sends the browser to the address without it; the directory's
// page holds it nowhere, has one entry per file the library lists and
// links to them, which the gateway fetches with the password it
// remembered, byte for byte (the 64 MiB file too); a HEAD says the size.
func TestSFTPGateway(t *testing.T) {
	c := sftpFetchClient(t)
	base := startGateway(t, gateway.Options{Client: c})
	resp, err := http.Get(base + gateway.Address(sftpURL("bin/")))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := gateway.Address(sftpAliceAt("bin/")); resp.StatusCode != 200 || resp.Request.URL.RequestURI() != want {
		t.Fatalf("%d at %s, want 200 at %s\n%s", resp.StatusCode, resp.Request.URL.RequestURI(), want, page)
	}
	if strings.Contains(string(page), testbed.AlicePassword) {
		t.Fatalf("the page holds the password:\n%s", page)
	}
	l, err := c.List(context.Background(), sftpURL("bin/"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(l.Listing)
	l.Close()
	if err != nil || len(entries) < 3 {
		t.Fatalf("listing bin/: %d entries, %v", len(entries), err)
	}
	if n := strings.Count(string(page), "<li"); n != len(entries) {
		t.Errorf("%d <li> on the page, %d entries listed", n, len(entries))
	}
	for _, e := range entries {
		if link := gateway.Address(sftpAliceAt("bin/" + e.Name)); !strings.Contains(string(page), `href="`+link+`"`) {
			t.Errorf("no link %s on the page", link)
		}
	}
	for _, p := range []string{"bin/small.bin", testbed.BigFile} {
		want, wantN := fileSHA256(t, filepath.Join(testbed.FixtureDir(), p))
		resp, err := http.Get(base + gateway.Address(sftpAliceAt(p)))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		n, err := io.Copy(h, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || hex.EncodeToString(h.Sum(nil)) != want || n != wantN || resp.ContentLength != n {
			t.Errorf("%s: %d, %d bytes (Content-Length %d), %v; want %d bytes, SHA-256 %s", p, resp.StatusCode, n,
				resp.ContentLength, err, wantN, want)
		}
		resp, err = http.Head(base + gateway.Address(sftpAliceAt(p)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.ContentLength != wantN {
			t.Errorf("HEAD %s: %d, Content-Length %d; want 200, %d", p, resp.StatusCode, resp.ContentLength, wantN)
		}
	}
}

// TestSFTPRoundTrip: a plain http.Client with the Client's RoundTripper
// for sftp gets a file byte for byte, a directory as the JSON lines of
// the entries the Client lists, a Range as 206 with those bytes, a HEAD
// with the size, and a missing file as 404.
func TestSFTPRoundTrip(t *testing.T) {
	c := sftpFetchClient(t)
	tr := &http.Transport{}
	tr.RegisterProtocol("sftp", c.RoundTripper())
	e := &rtEnv{c: c, hc: &http.Client{Transport: tr}}
	local, err := os.ReadFile(filepath.Join(testbed.FixtureDir(), "bin", "small.bin"))
	if err != nil {
		t.Fatal(err)
	}
	small := sftpURL("bin/small.bin")
	if resp, got := e.do(t, "GET", small); resp.StatusCode != 200 || string(got) != string(local) || resp.ContentLength != int64(len(local)) {
		t.Errorf("GET small.bin: %d, %d bytes (Content-Length %d), want %d", resp.StatusCode, len(got), resp.ContentLength, len(local))
	}
	resp, got := e.do(t, "GET", sftpURL("bin/"))
	if want := e.direct(t, sftpURL("bin/")); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != fetch.ListingMediaType ||
		len(want) == 0 || string(got) != string(want) {
		t.Errorf("GET bin/: %d %s\n%s\nwant\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), got, want)
	}
	var first struct {
		Name string `json:"name"`
	}
	if line, _, _ := strings.Cut(string(got), "\n"); json.Unmarshal([]byte(line), &first) != nil || first.Name == "" {
		t.Errorf("the listing's first line is no entry: %q", line)
	}
	size := len(local)
	resp, got = e.do(t, "GET", small, "Range", "bytes=100-109")
	if resp.StatusCode != 206 || string(got) != string(local[100:110]) || resp.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-109/%d", size) {
		t.Errorf("Range: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Range"), len(got))
	}
	resp, got = e.do(t, "HEAD", small)
	if resp.StatusCode != 200 || len(got) != 0 || resp.ContentLength != int64(size) || resp.Header.Get("Last-Modified") == "" {
		t.Errorf("HEAD: %d %v", resp.StatusCode, resp.Header)
	}
	resp, got = e.do(t, "GET", sftpURL("no-such-file.txt"))
	_, err = c.Get(context.Background(), sftpURL("no-such-file.txt"))
	if resp.StatusCode != http.StatusNotFound || fetch.HTTPStatus(err) != http.StatusNotFound || !strings.Contains(string(got), strings.TrimSpace(err.Error())) {
		t.Errorf("missing: %d %q; direct: %v", resp.StatusCode, got, err)
	}
	if strings.Contains(string(got), testbed.AlicePassword) {
		t.Errorf("the 404's body holds the password: %q", got)
	}
}

// TestSFTPFS walks sshd's fixture tree with fs.WalkDir through the
// Client's FS: every name of the host's tree, each file with its size;
// then fstest.TestFS checks the FS of it whole (outside-link resolves on
// the server to its own /etc/hostname, so is no error).
func TestSFTPFS(t *testing.T) {
	c := sftpFetchClient(t)
	fsys, err := c.FS(context.Background(), sftpURL(""))
	if err != nil {
		t.Fatal(err)
	}
	root := testbed.FixtureDir()
	want := map[string]int64{}
	for _, p := range fixturePaths(t, func(rel string) bool { return rel == testbed.ScratchDir }) {
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		want[p] = -1
		if fi.Mode().IsRegular() {
			want[p] = fi.Size()
		}
	}
	got := map[string]int64{}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p == ".":
			return nil
		case p == testbed.ScratchDir:
			return fs.SkipDir
		}
		got[p] = -1
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			got[p] = fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, n := range want {
		if g, ok := got[p]; !ok || g != n {
			t.Errorf("%s: %d (listed %v), want %d", p, g, ok, n)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s is extra", p)
		}
	}
	if len(got) < testbed.ManyFiles {
		t.Errorf("walked %d paths", len(got))
	}
	if target, err := fsys.ReadLink(testbed.OutsideLink); target != testbed.OutsideLinkTarget || err != nil {
		t.Errorf("ReadLink(outside-link) = %q, %v", target, err)
	}
	// fstest on each top directory but ScratchDir, whose files other
	// tests change (and which may hold a bench's large files).
	for p, n := range want {
		if n >= 0 || strings.Contains(p, "/") || p == testbed.OutsideLink {
			continue
		}
		sub, err := fs.Sub(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		var expected []string
		for q := range want {
			if rest, ok := strings.CutPrefix(q, p+"/"); ok {
				expected = append(expected, rest)
			}
		}
		if err := fstest.TestFS(sub, expected...); err != nil {
			t.Errorf("fstest of %s: %v", p, err)
		}
	}
	if _, err := fsys.Stat("no-such-file"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(no-such-file) = %v, want fs.ErrNotExist", err)
	}
}
