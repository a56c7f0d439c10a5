package ftp

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// vsftpd150 is the 150 reply of vsftpd and proftpd, which tells the size.
func vsftpd150(name string, size int) string {
	return fmt.Sprintf("150 Opening BINARY mode data connection for %s (%d bytes).", name, size)
}

// step is one URL fetched in turn over one Handler, the commands it must
// send, and the size its Response must announce.
type step struct {
	path   string
	offset int64
	cmds   []string
	size   int64
}

// TestCommandsPerFile: the URLs of one run to one server share a control
// connection, and each sends only what changes the connection's state:
// no CWD while the directory stays the same (only the missing segments
// into a subdirectory, else back to the login directory and down, as RFC
// 1738 §3.2.5 reads a URL from there), TYPE only when it changes, MDTM
// only to resume, and SIZE only until the server's 150 reply has shown
// that it tells the size (vsftpd, proftpd) — never when it does not know
// SIZE. Every size a Response announces is checked against the bytes.
func TestCommandsPerFile(t *testing.T) {
	login := []string{"USER anonymous", "PASS me@example.org", "PWD"}
	for _, tc := range []struct {
		name    string
		open150 func(string, int) string
		noSIZE  bool
		syst    string // the reply to SYST; "" is the fake's 502
		steps   []step
	}{
		{name: "150 tells the size (vsftpd, proftpd)", open150: vsftpd150, steps: []step{
			{path: "pub/a.bin", cmds: append(login, "CWD pub", "TYPE I", "SIZE a.bin", "EPSV", "RETR a.bin"), size: 5},
			{path: "pub/b.bin", cmds: []string{"EPSV", "RETR b.bin"}, size: 6},
			// A text-looking name asks SYST: the fake gives no answer, so
			// TYPE I, which is in effect already.
			{path: "pub/c.txt", cmds: []string{"SYST", "EPSV", "RETR c.txt"}, size: 7},
			{path: "pub/sub/d.bin", cmds: []string{"CWD sub", "EPSV", "RETR d.bin"}, size: 8},
			{path: "other/e.bin", cmds: []string{"CWD /home/u", "CWD other", "EPSV", "RETR e.bin"}, size: 9},
			{path: "other/e.bin", offset: 2, cmds: []string{"SIZE e.bin", "MDTM e.bin", "EPSV", "REST 2", "RETR e.bin"},
				size: 9},
			{path: "f.bin", cmds: []string{"CWD /home/u", "EPSV", "RETR f.bin"}, size: 10},
			{path: "other/e.bin", cmds: []string{"CWD other", "EPSV", "RETR e.bin"}, size: 9},
		}},
		// Text from another system is TYPE A; SYST is asked once per
		// connection.
		{name: "Windows_NT server", open150: vsftpd150, syst: "215 Windows_NT", steps: []step{
			{path: "pub/a.bin", cmds: append(login, "CWD pub", "TYPE I", "SIZE a.bin", "EPSV", "RETR a.bin"), size: 5},
			{path: "pub/c.txt", cmds: []string{"SYST", "TYPE A", "EPSV", "RETR c.txt"}, size: -1},
			{path: "pub/sub/d.bin", cmds: []string{"CWD sub", "TYPE I", "EPSV", "RETR d.bin"}, size: 8},
			{path: "pub/c.txt", cmds: []string{"CWD /home/u", "CWD pub", "TYPE A", "EPSV", "RETR c.txt"}, size: -1},
		}},
		{name: "150 without the size (pure-ftpd)", steps: []step{
			{path: "pub/a.bin", cmds: append(login, "CWD pub", "TYPE I", "SIZE a.bin", "EPSV", "RETR a.bin"), size: 5},
			{path: "pub/b.bin", cmds: []string{"SIZE b.bin", "EPSV", "RETR b.bin"}, size: 6},
		}},
		{name: "150 with a size that is not SIZE's", open150: func(n string, size int) string { return vsftpd150(n, size+1) },
			steps: []step{
				{path: "pub/a.bin", cmds: append(login, "CWD pub", "TYPE I", "SIZE a.bin", "EPSV", "RETR a.bin"), size: 5},
				{path: "pub/b.bin", cmds: []string{"SIZE b.bin", "EPSV", "RETR b.bin"}, size: 6},
			}},
		{name: "no SIZE command, 150 tells the size", open150: vsftpd150, noSIZE: true, steps: []step{
			{path: "pub/a.bin", cmds: append(login, "CWD pub", "TYPE I", "SIZE a.bin", "EPSV", "RETR a.bin"), size: 5},
			{path: "pub/b.bin", cmds: []string{"EPSV", "RETR b.bin"}, size: 6},
		}},
		{name: "no SIZE command, nor a size in 150", noSIZE: true, steps: []step{
			{path: "pub/a.bin", cmds: append(login, "CWD pub", "TYPE I", "SIZE a.bin", "EPSV", "RETR a.bin"), size: -1},
			{path: "pub/b.bin", cmds: []string{"EPSV", "RETR b.bin"}, size: -1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			for i, n := range []string{"a.bin", "b.bin", "c.txt", "d.bin", "e.bin", "f.bin"} {
				f.files[n] = strings.Repeat("x", 5+i)
			}
			f.open150 = tc.open150
			if tc.syst != "" {
				f.replies["SYST"] = tc.syst
			}
			if tc.noSIZE {
				for n := range f.files {
					f.replies["SIZE "+n] = "502 Command not implemented."
				}
			}
			e := newEnv(t)
			done := 0
			for i, st := range tc.steps {
				req := e.req(t, f.url(st.path))
				req.Offset = st.offset
				if st.offset > 0 {
					req.Partial.ModTime = time.Now() // another tool's copy: an Offset alone is a byte range
				}
				resp, err := e.h.Fetch(context.Background(), req)
				if err != nil {
					t.Fatalf("step %d (%s): %v", i, st.path, err)
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				name := st.path[strings.LastIndexByte(st.path, '/')+1:]
				if err != nil || string(b) != f.files[name][st.offset:] || resp.Size != st.size {
					t.Errorf("step %d (%s): %d bytes, size %d, %v; want %d bytes, size %d", i, st.path, len(b), resp.Size,
						err, len(f.files[name])-int(st.offset), st.size)
				}
				all := f.commands()
				if got := all[done:]; !slices.Equal(got, st.cmds) {
					t.Errorf("step %d (%s):\n got %q\nwant %q", i, st.path, got, st.cmds)
				}
				done = len(all)
			}
			if f.connCount() != 1 {
				t.Errorf("%d control connections, want 1", f.connCount())
			}
		})
	}
}

// TestSizeFrom150IsChecked: a size taken from the 150 reply instead of
// SIZE is held to the same check: a transfer that ends short fails.
func TestSizeFrom150IsChecked(t *testing.T) {
	f := newFake(t)
	f.files["a.bin"], f.files["b.bin"] = "aaaa", "0123456789"
	f.open150 = vsftpd150
	e := newEnv(t)
	if _, _, err := e.get(t, f.url("a.bin")); err != nil {
		t.Fatal(err)
	}
	f.truncate = 5
	_, _, err := e.get(t, f.url("b.bin"))
	if se := kindCode(t, err, schemes.KindProtocol, 0, true); !strings.Contains(se.Msg, "truncated") {
		t.Errorf("err %v", err)
	}
	if slices.Contains(f.commands(), "SIZE b.bin") {
		t.Errorf("commands %q: the second file should take its size from the 150 reply", f.commands())
	}
}

// TestByteCount reads the "(N bytes)" of transfer replies, and nothing
// else that looks like a number.
func TestByteCount(t *testing.T) {
	for _, tc := range []struct {
		text string
		n    int64
		ok   bool
	}{
		{"Opening BINARY mode data connection for f.bin (4096 bytes).", 4096, true},
		{"Opening BINARY mode data connection for f (1) (0 bytes)", 0, true},
		{"Opening BINARY mode data connection for a (7 bytes) b (12 bytes)", 12, true},
		{"Accepted data connection", 0, false},
		{"4.0 kbytes to download", 0, false},
		{"Opening data connection for f ( bytes)", 0, false},
		{"Opening data connection for f (-3 bytes)", 0, false},
		{"Opening data connection for f (12 kbytes)", 0, false},
		{"Opening data connection for f (99999999999999999999 bytes)", 0, false},
	} {
		n, ok := byteCount(tc.text)
		if n != tc.n || ok != tc.ok {
			t.Errorf("%q: %d %v, want %d %v", tc.text, n, ok, tc.n, tc.ok)
		}
	}
}

// TestTypeATruncation: a TYPE A transfer has no exact size to check, but
// the file's size the 150 reply announces is a floor (the conversion to
// CRLF only adds bytes): a transfer that ends below it fails.
func TestTypeATruncation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		announce func(size int) int // what the 150 says of a file of size bytes
		truncate int
		ok       bool
	}{
		{name: "whole", announce: func(n int) int { return n }, truncate: -1, ok: true},
		{name: "more on the wire than on disk", announce: func(n int) int { return n - 2 }, truncate: -1, ok: true},
		{name: "short", announce: func(n int) int { return n }, truncate: 5},
		{name: "short, no size announced", truncate: 5, ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.txt"] = "line one\r\nline two\r\n"
			f.truncate = tc.truncate
			if tc.announce != nil {
				f.open150 = func(n string, size int) string { return vsftpd150(n, tc.announce(size)) }
			}
			_, resp, err := newEnv(t).get(t, f.url("f.txt;type=a"))
			if tc.ok {
				if err != nil || resp.Size != -1 {
					t.Errorf("%v, size %v", err, resp)
				}
				return
			}
			if se := kindCode(t, err, schemes.KindProtocol, 0, true); !strings.Contains(se.Msg, "in TYPE A, fewer than") {
				t.Errorf("err %v", err)
			}
		})
	}
}
