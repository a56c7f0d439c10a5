//go:build integration

package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/dirsrv"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// prosperoRoot is where the dirsrv service keeps its native tree (the
// compose file's -root): its hsonames are paths under it.
const prosperoRoot = "/srv/prospero"

// prosperoURL is the URL of hsoname on the test bed's Prospero server;
// hsonames are absolute, so the URL path starts with "//" (RFC 1738).
func prosperoURL(hsoname string) string {
	return fmt.Sprintf("prospero://%s/%s", testbed.Addr(testbed.ProsperoPort), escapePath(hsoname))
}

// prosperoClient is a client counting its sockets, with a trace.
func prosperoClient(t *testing.T) (*fetch.Client, *conformance.CountingDialer, *conformance.SyncBuffer) {
	tr := &conformance.SyncBuffer{}
	d := conformance.NewCountingDialer()
	c := &fetch.Client{Dialer: d, Trace: transport.NewTrace(tr)}
	t.Cleanup(c.CloseIdleConnections)
	return c, d, tr
}

// prosperoGet fetches raw whole.
func prosperoGet(t *testing.T, c *fetch.Client, raw string) ([]byte, *fetch.Response, error) {
	t.Helper()
	resp, err := c.Get(context.Background(), raw)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return b, resp, err
}

// TestProsperoContents: every native file of dirsrv's tree, fetched by
// PROSPERO-CONTENTS after the ACCESS-METHOD-alone NOT-FOUND and the #ALL
// retry, byte for byte: the 44,800-byte file (36 packets, two ACK
// rounds), every byte value, names with a space, a quote, CR LF, the
// empty file. No socket stays open.
func TestProsperoContents(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	c, d, tr := prosperoClient(t)
	for p, want := range dirsrv.TreeFiles() {
		got, resp, err := prosperoGet(t, c, prosperoURL(prosperoRoot+"/"+p))
		if err != nil {
			t.Errorf("%q: %v", p, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%q: %d bytes, want %d", p, len(got), len(want))
		}
		if resp.Resolved == nil || !slices.Contains(resp.Resolved.Chain, "PROSPERO-CONTENTS") {
			t.Errorf("%q: resolution %+v, want PROSPERO-CONTENTS", p, resp.Resolved)
		}
	}
	if !strings.Contains(tr.String(), "#ALL") {
		t.Errorf("no #ALL retry in the trace:\n%s", tr)
	}
	if n := d.Open.Load(); n != 0 {
		t.Errorf("%d sockets left open", n)
	}
}

// TestProsperoExternalLinks: the EXTERNAL links of the virtual directory
// resolve through their parent's listing to vsftpd (AFTP) and gophernicus
// (GOPHER), and are fetched there by urlget's own handlers — the same
// bytes as those URLs give typed by hand; a download records the chain.
func TestProsperoExternalLinks(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	testbed.Require(t, testbed.Vsftpd)
	testbed.Require(t, testbed.Gophernicus)
	c, _, tr := prosperoClient(t)
	for _, tc := range []struct{ name, direct string }{
		{"ftp-readme", fmt.Sprintf("ftp://%s/%%2FREADME.txt;type=i", testbed.Addr(testbed.VsftpdPort))},
		{"gopher-lf", fmt.Sprintf("gopher://%s/0/text/lf.txt", testbed.Addr(testbed.GophernicusPort))},
	} {
		got, resp, err := prosperoGet(t, c, prosperoURL(dirsrv.VirtualRoot+"/"+tc.name))
		if err != nil {
			t.Errorf("%s: %v\n%s", tc.name, err, tr)
			continue
		}
		want, _, err := prosperoGet(t, c, tc.direct)
		if err != nil || len(want) == 0 || string(got) != string(want) {
			t.Errorf("%s: %q, want %q (%v)", tc.name, clipStr(got), clipStr(want), err)
		}
		if resp.URL.String() != tc.direct || resp.Resolved == nil || resp.Resolved.Chain[len(resp.Resolved.Chain)-1] != tc.direct {
			t.Errorf("%s: fetched %v, resolution %+v; want %s", tc.name, resp.URL, resp.Resolved, tc.direct)
		}
	}
	dest := filepath.Join(t.TempDir(), "readme")
	res, err := c.Download(context.Background(), prosperoURL(dirsrv.VirtualRoot+"/ftp-readme"), dest, fetch.DownloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(dest)
	if string(b) != testbed.FixtureFiles["README.txt"] || len(res.Resolution) != 4 || !strings.HasPrefix(res.Resolution[2], "ACCESS-METHOD AFTP '' ''") {
		t.Errorf("download: %q, resolution %q", b, res.Resolution)
	}
}

// TestProsperoListing: a native directory lists its files (sizes, the
// tree's time) and directories, each Locator fetching the same bytes; the
// virtual directory lists EXTERNAL links as links to their access
// method's URL, a DIRECTORY and a FILE link on the other listener; an
// empty directory lists nothing.
func TestProsperoListing(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	c, _, _ := prosperoClient(t)
	list := func(raw string) map[string]schemes.Entry {
		t.Helper()
		m := map[string]schemes.Entry{}
		for _, e := range listEntries(t, c, raw) {
			m[e.Title] = e
		}
		return m
	}
	native := list(prosperoURL(prosperoRoot))
	files := dirsrv.TreeFiles()
	for p, want := range files {
		if strings.Contains(p, "/") {
			continue
		}
		e, ok := native[p]
		if !ok {
			t.Errorf("listing lacks %q", p)
			continue
		}
		if e.Kind != schemes.EntryFile || e.Size != int64(len(want)) || !e.ModTime.Equal(dirsrv.TreeTime) || e.Locator == nil {
			t.Errorf("%q: kind %s size %d time %v locator %v", p, e.Kind, e.Size, e.ModTime, e.Locator)
			continue
		}
		got, _, err := prosperoGet(t, c, e.Locator.String())
		if err != nil || string(got) != string(want) {
			t.Errorf("%q by its Locator %s: %d bytes, %v", p, e.Locator.Redacted(), len(got), err)
		}
	}
	for _, d := range []string{"sub", "emptydir"} {
		if e := native[d]; e.Kind != schemes.EntryDir || e.Locator == nil {
			t.Errorf("%s: %+v, want a directory with a URL", d, e)
		}
	}
	if n := len(native); n != 9 {
		t.Errorf("%d entries, want 9: %v", n, slices.Sorted(maps.Keys(native)))
	}
	if sub := list(native["sub"].Locator.String()); sub["nested.txt"].Size != int64(len(files["sub/nested.txt"])) || sub["deeper"].Kind != schemes.EntryDir {
		t.Errorf("sub: %v", sub)
	}
	if empty := list(native["emptydir"].Locator.String()); len(empty) != 0 {
		t.Errorf("emptydir: %v", empty)
	}

	virtual := list(prosperoURL(dirsrv.VirtualRoot))
	links := map[string]string{
		"ftp-readme":     fmt.Sprintf("ftp://%s/%%2FREADME.txt;type=i", testbed.Addr(testbed.VsftpdPort)),
		"gopher-lf":      fmt.Sprintf("gopher://%s/0/text/lf.txt", testbed.Addr(testbed.GophernicusPort)),
		"with space.txt": fmt.Sprintf("ftp://%s/%%2Fnames/file%%20with%%20space.txt;type=a", testbed.Addr(testbed.VsftpdPort)),
	}
	for name, target := range links {
		if e := virtual[name]; e.Kind != schemes.EntryLink || e.Target != target {
			t.Errorf("%s: kind %s target %q, want a link to %s", name, e.Kind, e.Target, target)
		}
	}
	// 1525 is the scheme's default port: the URL leaves it out.
	if e := virtual["pfs"]; e.Kind != schemes.EntryDir || e.Locator == nil || e.Locator.String() != "prospero://"+testbed.Host+"/"+prosperoRoot {
		t.Errorf("pfs: %+v", e)
	}
	alt := fmt.Sprintf("prospero://%s/%s/README.txt", testbed.Addr(testbed.ProsperoAltPort), prosperoRoot)
	if e := virtual["readme-elsewhere"]; e.Kind != schemes.EntryFile || e.Locator == nil || e.Locator.String() != alt {
		t.Errorf("readme-elsewhere: %+v, want a file at %s", e, alt)
	}
}

func clipStr(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// TestProsperoForwardedAndLinks: FORWARDED is followed to the other
// listener; a FILE link of the virtual directory is fetched from its own
// server; a forwarding loop stops after 20 hops.
func TestProsperoForwardedAndLinks(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	c, _, tr := prosperoClient(t)
	want := string(dirsrv.TreeFiles()["README.txt"])
	for _, name := range []string{dirsrv.Moved, dirsrv.VirtualRoot + "/readme-elsewhere"} {
		got, _, err := prosperoGet(t, c, prosperoURL(name))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	if alt := testbed.Addr(testbed.ProsperoAltPort); strings.Count(tr.String(), "Connected to "+alt) < 2 {
		t.Errorf("the other listener (%s) was not asked twice:\n%s", alt, tr)
	}
	_, _, err := prosperoGet(t, c, prosperoURL(dirsrv.Loop))
	if schemes.KindOf(err).ExitCode() != 6 || !strings.Contains(fmt.Sprint(err), "20") {
		t.Errorf("loop: %v (exit %d), want exit 6 after 20 hops", err, schemes.KindOf(err).ExitCode())
	}
}

// TestProsperoFailures: the server's FAILUREs as exit codes: NOT-FOUND 3
// (matching fs.ErrNotExist, after the #ALL retry and the parent's
// listing), NOT-AUTHORIZED 4 (outside the exported roots), a refusal.
func TestProsperoFailures(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	c, _, tr := prosperoClient(t)
	_, _, err := prosperoGet(t, c, prosperoURL(prosperoRoot+"/no/such.txt"))
	if !errors.Is(err, fs.ErrNotExist) || schemes.KindOf(err).ExitCode() != 3 {
		t.Errorf("missing: %v, want not found (exit 3)", err)
	}
	if !strings.Contains(tr.String(), "LIST ATTRIBUTES COMPONENTS such.txt") {
		t.Errorf("the parent was not listed for the last component:\n%s", tr)
	}
	_, _, err = prosperoGet(t, c, prosperoURL("/etc/passwd"))
	if schemes.KindOf(err).ExitCode() != 4 || !strings.Contains(fmt.Sprint(err), "NOT-AUTHORIZED") {
		t.Errorf("outside the roots: %v (exit %d), want NOT-AUTHORIZED, exit 4", err, schemes.KindOf(err).ExitCode())
	}
	// A path without the leading double slash is a relative hsoname, which
	// the server refuses: the error names it and gives the absolute form
	// (issue 23).
	relative := fmt.Sprintf("prospero://%s%s/README.txt", testbed.Addr(testbed.ProsperoPort), prosperoRoot)
	_, _, err = prosperoGet(t, c, relative)
	// (The suggested URL leaves out the default port.)
	abs := strings.Replace(prosperoURL(prosperoRoot+"/README.txt"), fmt.Sprintf(":%d/", testbed.ProsperoPort), "/", 1)
	if schemes.KindOf(err).ExitCode() != 4 ||
		!strings.Contains(fmt.Sprint(err), `NOT-AUTHORIZED for the hsoname "`+prosperoRoot[1:]+`/README.txt"`) ||
		!strings.Contains(fmt.Sprint(err), abs) {
		t.Errorf("relative hsoname: %v, want NOT-AUTHORIZED naming it and suggesting %s", err, abs)
	}
	// A file whose attributes list no access method is tried as a
	// directory, which it is not: nothing to fetch.
	_, _, err = prosperoGet(t, c, prosperoURL("/switch/nomethods"+prosperoRoot+"/README.txt"))
	if schemes.KindOf(err).ExitCode() != 3 || !strings.Contains(fmt.Sprint(err), "no access method and is no directory") {
		t.Errorf("no access method: %v (exit %d), want exit 3 saying why", err, schemes.KindOf(err).ExitCode())
	}
	_, _, err = prosperoGet(t, c, prosperoURL("/switch/refuse"+prosperoRoot+"/README.txt"))
	if err == nil || !strings.Contains(fmt.Sprint(err), "refused") {
		t.Errorf("refusal: %v", err)
	}
}

// TestProsperoARDPHardCases: the 36-packet file through each of the
// server's switches, byte for byte, with the trace saying what happened:
// packets 2 and 17 lost (2 recovered by the ACK of packet 1, 17 — the one
// asking for an ACK — by the client's ACK when its timer ran out), every
// packet twice, the byte-swapped CID after the ACK, a wait packet first,
// a redirect to the other listener. A server that never answers fails
// within the caller's deadline.
func TestProsperoARDPHardCases(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	want := string(dirsrv.TreeFiles()[dirsrv.BigFile])
	for _, tc := range []struct{ sw, note string }{
		{"drop", "acknowledging packet 16 again"},
		{"dup", ""},
		{"swap", "byte-swapped connection id"},
		{"wait", "asks to wait 2 s"},
		{"redirect", "redirects the request to " + testbed.Addr(testbed.ProsperoAltPort)},
	} {
		t.Run(tc.sw, func(t *testing.T) {
			t.Parallel()
			c, d, tr := prosperoClient(t)
			got, _, err := prosperoGet(t, c, prosperoURL("/switch/"+tc.sw+prosperoRoot+"/"+dirsrv.BigFile))
			if err != nil || string(got) != want {
				t.Fatalf("%d bytes, %v\n%s", len(got), err, tr)
			}
			if !strings.Contains(tr.String(), tc.note) {
				t.Errorf("the trace does not say %q:\n%s", tc.note, tr)
			}
			if n := d.Open.Load(); n != 0 {
				t.Errorf("%d sockets left open", n)
			}
		})
	}
	// --connect-timeout bounds the wait for the first packet, and the
	// error names the setting (as the library does: the Dialer's
	// ConnectTimeout; urlget says --connect-timeout); the ISI schedule
	// alone took a minute (issue 23).
	t.Run("silent, --connect-timeout", func(t *testing.T) {
		t.Parallel()
		c := &fetch.Client{Dialer: &transport.Dialer{ConnectTimeout: 700 * time.Millisecond, IdleTimeout: time.Minute}}
		start := time.Now()
		_, err := c.Get(context.Background(), prosperoURL("/switch/silent"+prosperoRoot+"/README.txt"))
		if schemes.KindOf(err) != schemes.KindTimeout || !strings.Contains(fmt.Sprint(err), "within 700ms (transport.ConnectTimeout") {
			t.Errorf("err = %v, want the connect timeout's", err)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("gave up after %v, the connect timeout was 0.7 s", el)
		}
	})
	t.Run("silent", func(t *testing.T) {
		t.Parallel()
		c, _, _ := prosperoClient(t)
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.Get(ctx, prosperoURL("/switch/silent"+prosperoRoot+"/README.txt"))
		if !errors.Is(err, context.DeadlineExceeded) && schemes.KindOf(err) != schemes.KindTimeout {
			t.Errorf("err = %v, want the deadline", err)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("gave up after %v, the deadline was 1.5 s", el)
		}
	})
}
