package transport

import (
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// TestPoolUnreadBytes: a session with bytes its server sent and it did
// not read, wherever they wait (its own buffer, the TLS layer, the
// socket), is out of step and is closed when kept; a session at rest,
// plain or TLS, is kept, lent and still works after the check.
func TestPoolUnreadBytes(t *testing.T) {
	tlsSrv, caFile := tlsGreeter(t)
	cfg, err := TLSConfig(caFile, false, "")
	if err != nil {
		t.Fatal(err)
	}
	// strayServer answers a line with "ok" and a stray line after it.
	strayServer := newServer(t, func(c net.Conn) {
		lineServerOnce(c)
		io.WriteString(c, "stray\n")
		io.Copy(io.Discard, c)
	})
	plainSrv := newServer(t, lineServer)
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, TLS: cfg}
	// tlsSession dials the TLS greeter and reads n bytes of its 11-byte
	// greeting "220 hello\r\n" straight off the TLS connection.
	tlsSession := func(t *testing.T, n int) *testSession {
		c, err := d.DialTLS(t.Context(), "nntps", "127.0.0.1", tlsSrv.port())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, make([]byte, n)); err != nil {
			t.Fatal(err)
		}
		return &testSession{c: c}
	}
	for _, tc := range []struct {
		name string
		port int
		// ready makes the session as its last request left it.
		ready func(t *testing.T) *testSession
		kept  bool
	}{
		{"plain at rest", plainSrv.port(), func(t *testing.T) *testSession {
			s := dialSession(t, d, plainSrv)
			if err := roundTrip(s); err != nil {
				t.Fatal(err)
			}
			return s
		}, true},
		{"bytes in the session's buffer", plainSrv.port(), func(t *testing.T) *testSession {
			s := dialSession(t, d, plainSrv)
			s.unread = 6
			return s
		}, false},
		{"a stray reply in the socket", strayServer.port(), func(t *testing.T) *testSession {
			s := dialSession(t, d, strayServer)
			if err := roundTrip(s); err != nil {
				t.Fatal(err)
			}
			waitReadable(t, s.c)
			return s
		}, false},
		{"TLS at rest", tlsSrv.port(), func(t *testing.T) *testSession { return tlsSession(t, 11) }, true},
		{"bytes in the TLS layer", tlsSrv.port(), func(t *testing.T) *testSession { return tlsSession(t, 4) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Pool{}
			defer p.CloseIdle()
			k := keyFor(t, d, false, "", "", tc.port)
			s := tc.ready(t)
			p.Keep(k, s)
			if s.closed.Load() == tc.kept || p.Idle() != map[bool]int{true: 1}[tc.kept] {
				t.Fatalf("closed %v, idle %d; want kept %v", s.closed.Load(), p.Idle(), tc.kept)
			}
			if !tc.kept {
				return
			}
			got := p.Lease(t.Context(), k, nil)
			if got != s {
				t.Fatal("the session at rest was not lent")
			}
			// The check left the connection working: it still answers.
			if _, err := io.WriteString(s.c, "ping\r\n"); err != nil {
				t.Fatal(err)
			}
			want := map[bool]string{true: "ok\n", false: "ping\r\n"}[tc.port == plainSrv.port()]
			b := make([]byte, len(want))
			if _, err := io.ReadFull(s.c, b); err != nil || string(b) != want {
				t.Fatalf("after the check: %q, %v; want %q", b, err, want)
			}
			s.Close()
		})
	}
}

// TestPoolUnreadAtLease: a session kept at rest whose buffer holds bytes
// by the time it is asked for is closed, not lent.
func TestPoolUnreadAtLease(t *testing.T) {
	srv := newServer(t, lineServer)
	d := &Dialer{}
	p := &Pool{}
	defer p.CloseIdle()
	k := keyFor(t, d, false, "", "", srv.port())
	s := dialSession(t, d, srv)
	p.Keep(k, s)
	s.unread = 1
	if got := p.Lease(context.Background(), k, nil); got != nil {
		t.Fatal("lent a session with unread bytes")
	}
	if !s.closed.Load() || p.Idle() != 0 {
		t.Fatalf("closed %v, idle %d", s.closed.Load(), p.Idle())
	}
}

// TestPendingIsNotTheEnd: bytes waiting are pending; a server that closed
// after its reply has none pending, though its session is not at rest.
func TestPendingIsNotTheEnd(t *testing.T) {
	d := &Dialer{}
	for _, tc := range []struct {
		name    string
		after   func(net.Conn) // what the server does after its answer
		pending bool
		atRest  bool
	}{
		{"quiet", func(c net.Conn) { io.Copy(io.Discard, c) }, false, true},
		{"a stray reply", func(c net.Conn) { io.WriteString(c, "stray\n"); io.Copy(io.Discard, c) }, true, false},
		{"closed", func(c net.Conn) {}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, func(c net.Conn) {
				lineServerOnce(c)
				tc.after(c)
			})
			s := dialSession(t, d, srv)
			defer s.Close()
			if err := roundTrip(s); err != nil {
				t.Fatal(err)
			}
			if tc.name != "quiet" {
				waitReadable(t, s.c)
			}
			if got := Pending(s); got != tc.pending {
				t.Errorf("Pending = %v, want %v", got, tc.pending)
			}
			if got := AtRest(s); got != tc.atRest {
				t.Errorf("AtRest = %v, want %v", got, tc.atRest)
			}
		})
	}
}

// selfReader is a session whose library reads its connection on a
// goroutine of its own, as an SSH client does.
type selfReader struct {
	testSession
	up bool
}

func (s *selfReader) AtRest() bool { return s.up }

// TestAtRestSelfReader: a schemes.SelfReader answers for itself, and the
// socket is not peeked at while another goroutine reads it (a peek would
// wait for that read to end).
func TestAtRestSelfReader(t *testing.T) {
	srv := newServer(t, lineServer)
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second}
	c, err := d.Dial(t.Context(), "nntp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	reading := make(chan struct{})
	go func() {
		close(reading)
		c.Read(make([]byte, 1)) // blocks until the close: the library's reader
	}()
	<-reading
	s := &selfReader{testSession: testSession{c: c}, up: true}
	if !AtRest(s) {
		t.Error("a self-reading session that is up is not at rest")
	}
	s.up = false
	if AtRest(s) {
		t.Error("a self-reading session that is down is at rest")
	}
}
