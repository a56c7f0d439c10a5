package ftp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestHostileReplies: replies that would make the client hold without
// bound fail as protocol errors (exit 6) that are not retried: a line with
// no line end within maxReplyLine bytes (read no further than that), and
// a multi-line reply of more than maxReplyLines lines or maxReplyBytes.
func TestHostileReplies(t *testing.T) {
	long := strings.Repeat("x", 8<<20)
	many := strings.Repeat("220-x\r\n", maxReplyLines+1) + "220 end"
	big := strings.Repeat("220-"+strings.Repeat("y", 4000)+"\r\n", maxReplyBytes/4000+1) + "220 end"
	for _, tc := range []struct {
		name     string
		greeting string
		cmd, rp  string // a reply later in the session
		msg      string
	}{
		{name: "greeting line", greeting: "220 " + long, msg: "reply line too long"},
		{name: "line after login", cmd: "PWD", rp: `257 "` + long, msg: "reply line too long"},
		{name: "lines", greeting: many, msg: fmt.Sprintf("reply longer than %d lines", maxReplyLines)},
		{name: "1001 lines", greeting: strings.Repeat("220-x\r\n", maxReplyLines) + "220 end",
			msg: fmt.Sprintf("reply longer than %d lines", maxReplyLines)},
		{name: "bytes", greeting: big, msg: fmt.Sprintf("or %d bytes", maxReplyBytes)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.greeting = tc.greeting
			if tc.cmd != "" {
				f.replies[tc.cmd] = tc.rp
			}
			e := newEnv(t)
			_, _, err := e.get(t, f.url("f.bin"))
			se := kindCode(t, err, schemes.KindProtocol, 0, false)
			if !strings.Contains(se.Msg, tc.msg) || se.Kind.ExitCode() != 6 || se.Scheme != "ftp" {
				t.Errorf("err %v (scheme %q), want %q", err, se.Scheme, tc.msg)
			}
			if n := len(e.trace.String()); n > 2*maxReplyBytes {
				t.Errorf("trace of %d bytes: a long line is traced whole", n)
			}
		})
	}
}

// TestRepliesAtTheBound: a reply of exactly maxReplyLines lines is read.
func TestRepliesAtTheBound(t *testing.T) {
	f := newFake(t)
	f.greeting = strings.Repeat("220-x\r\n", maxReplyLines-1) + "220 end"
	e := newEnv(t)
	if _, _, err := e.get(t, f.url("f.bin")); err != nil && schemes.KindOf(err) == schemes.KindProtocol {
		t.Fatalf("a greeting of %d lines refused: %v", maxReplyLines, err)
	}
}

// TestControlCutInsideALine: a control connection that closes inside a
// reply line ("2", then nothing) broke: exit 5 and retryable, not a
// malformed reply (exit 6), so that --retry tries again.
func TestControlCutInsideALine(t *testing.T) {
	cut := serve(t, func(c net.Conn) {
		io.WriteString(c, "2")
		c.Close()
	})
	e := newEnv(t)
	_, _, err := e.get(t, "ftp://"+cut.Addr().String()+"/f.bin")
	if k := schemes.KindOf(err); k != schemes.KindConnect || !schemes.IsRetryable(err) {
		t.Fatalf("err %v (kind %v), want a broken connection, retryable", err, k)
	}
}

// TestTLSHandshakeTimeout: a server that never answers the TLS handshake
// (implicit ftps, or after AUTH TLS) is a timeout, exit 5, retryable —
// not a refused certificate (exit 7) nor a protocol error.
func TestTLSHandshakeTimeout(t *testing.T) {
	silent := serve(t, func(net.Conn) {})
	// A server that accepts AUTH TLS, then says nothing more.
	auth := serve(t, func(c net.Conn) {
		fmt.Fprint(c, "220 ready\r\n")
		if l, _ := bufio.NewReader(c).ReadString('\n'); l == "AUTH TLS\r\n" {
			fmt.Fprint(c, "234 Proceed with negotiation.\r\n")
		}
	})
	for _, tc := range []struct {
		name     string
		url      string
		explicit bool
		dialer   transport.Dialer
	}{
		{name: "implicit, idle timeout", url: "ftps://" + silent.Addr().String() + "/f.bin",
			dialer: transport.Dialer{IdleTimeout: 100 * time.Millisecond}},
		{name: "implicit, connect timeout", url: "ftps://" + silent.Addr().String() + "/f.bin",
			dialer: transport.Dialer{ConnectTimeout: 100 * time.Millisecond}},
		{name: "explicit", url: "ftp://" + auth.Addr().String() + "/f.bin", explicit: true,
			dialer: transport.Dialer{IdleTimeout: 100 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.d.Dialer = &tc.dialer
			e.h.ExplicitTLS = tc.explicit
			_, err := e.h.Fetch(context.Background(), e.req(t, tc.url))
			se := kindCode(t, err, schemes.KindTimeout, 0, true)
			if se.Kind.ExitCode() != 5 {
				t.Errorf("err %v: exit %d, want 5", err, se.Kind.ExitCode())
			}
		})
	}
}

// serve runs talk on each connection to a new listener on 127.0.0.1; the
// connections stay open until the test ends.
func serve(t *testing.T, talk func(net.Conn)) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
			go talk(c)
		}
	}()
	return ln
}

// TestNLSTBoundedMemory: an NLST listing streams: however many names
// come, the memory the client holds stays flat (nothing is kept per
// name). Live heap is measured after a collection, at intervals.
func TestNLSTBoundedMemory(t *testing.T) {
	const names = 1 << 18
	f := newFake(t)
	f.nlstGen = func(w io.Writer) {
		buf := make([]byte, 0, 64<<10)
		for i := range names {
			buf = fmt.Appendf(buf, "n%07d\r\n", i)
			if len(buf) > 60<<10 || i == names-1 {
				if _, err := w.Write(buf); err != nil {
					return
				}
				buf = buf[:0]
			}
		}
	}
	e := newEnv(t)
	resp, err := e.h.Fetch(context.Background(), e.req(t, f.url("pub/;type=d")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	live := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	n, base, peak := 0, uint64(0), uint64(0)
	for {
		en, err := resp.Listing.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if en.Name != fmt.Sprintf("n%07d", n) {
			t.Fatalf("entry %d: %q", n, en.Name)
		}
		switch n++; {
		case n == 1000:
			base = live()
		case n%(names/8) == 0:
			peak = max(peak, live())
		}
	}
	// 256 Ki names are 2.5 MiB on the wire, and would take 10 MiB or more
	// as entries; the client may hold its buffers.
	if n != names || peak > base+4<<20 {
		t.Errorf("%d names; live heap %d KiB after 1000 names, up to %d KiB later", n, base>>10, peak>>10)
	}
}

// TestMDTMOnlyWhenWanted: a plain download does not ask MDTM; one whose
// caller wants the server's time (-R: Request.WantModTime) does, and gets
// it in Response.ModTime.
func TestMDTMOnlyWhenWanted(t *testing.T) {
	for _, want := range []bool{false, true} {
		f := newFake(t)
		f.files["f.bin"] = "xyz"
		e := newEnv(t)
		req := e.req(t, f.url("f.bin"))
		req.WantModTime = want
		resp, err := e.h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
		asked := strings.Contains(strings.Join(f.commands(), "|"), "MDTM f.bin")
		if asked != want || resp.ModTime.IsZero() == want {
			t.Errorf("WantModTime %v: MDTM asked %v, ModTime %v (commands %q)", want, asked, resp.ModTime, f.commands())
		}
	}
}
