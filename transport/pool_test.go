package transport

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
)

// testSession is a pooled session over one dialed connection.
type testSession struct {
	c      net.Conn
	closed atomic.Bool
	dir    int // a state a cost function can read, like an FTP directory
	unread int // what its own read buffer would hold
}

func (s *testSession) Conn() net.Conn { return s.c }
func (s *testSession) Close() error   { s.closed.Store(true); return s.c.Close() }
func (s *testSession) Unread() int    { return s.unread }

// lineServer answers every line with "ok", like a server that speaks only
// when asked.
func lineServer(c net.Conn) {
	r := bufio.NewReader(c)
	for {
		if _, err := r.ReadString('\n'); err != nil {
			return
		}
		if _, err := c.Write([]byte("ok\n")); err != nil {
			return
		}
	}
}

// dialSession dials srv with a transport Dialer, as a handler does.
func dialSession(t *testing.T, d *Dialer, srv *server) *testSession {
	t.Helper()
	c, err := d.Dial(context.Background(), "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	return &testSession{c: c}
}

// roundTrip sends a line on s and reads the answer.
func roundTrip(s schemes.Session) error {
	if _, err := s.Conn().Write([]byte("x\n")); err != nil {
		return err
	}
	b := make([]byte, 3)
	_, err := s.Conn().Read(b)
	return err
}

func keyFor(t *testing.T, d schemes.Dialer, useTLS bool, user, pass string, port int) schemes.ConnKey {
	t.Helper()
	k, ok := schemes.NewConnKey(&schemes.Request{Dialer: d}, "ftp", "127.0.0.1", port, useTLS, user, pass)
	if !ok {
		t.Fatal("key not poolable")
	}
	return k
}

// TestPoolKeys: a session is leased only for an equal key. A session made
// by a Dialer without certificate checks never serves a request whose
// Dialer verifies them (TLS settings are the Dialer's: its identity stands
// for them), one logged in as alice never serves bob, and one of another
// dialer (its proxy and port policy) or server never serves either.
func TestPoolKeys(t *testing.T) {
	srv := newServer(t, lineServer)
	insecure := &tls.Config{InsecureSkipVerify: true}
	d, other := &Dialer{TLS: insecure}, &Dialer{TLS: insecure}
	base := keyFor(t, d, true, "alice", "secret", srv.port())
	for _, tc := range []struct {
		name string
		key  schemes.ConnKey
		same bool
	}{
		{"same settings", keyFor(t, d, true, "alice", "secret", srv.port()), true},
		{"verifying TLS", keyFor(t, &Dialer{TLS: &tls.Config{}}, true, "alice", "secret", srv.port()), false},
		{"default TLS", keyFor(t, &Dialer{}, true, "alice", "secret", srv.port()), false},
		{"plain", keyFor(t, d, false, "alice", "secret", srv.port()), false},
		{"other user", keyFor(t, d, true, "bob", "secret", srv.port()), false},
		{"other password", keyFor(t, d, true, "alice", "guess", srv.port()), false},
		{"anonymous", keyFor(t, d, true, "", "", srv.port()), false},
		{"other dialer", keyFor(t, other, true, "alice", "secret", srv.port()), false},
		{"other port", keyFor(t, d, true, "alice", "secret", srv.port()+1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Pool{}
			defer p.CloseIdle()
			s := dialSession(t, d, srv)
			p.Keep(base, s)
			got := p.Lease(context.Background(), tc.key, nil)
			if (got != nil) != tc.same {
				t.Fatalf("leased %v for a key that is same=%v", got != nil, tc.same)
			}
			if got != nil && got != schemes.Session(s) {
				t.Fatal("leased a session that was never kept")
			}
			if !tc.same && p.Idle() != 1 {
				t.Fatalf("idle %d, want the session still kept", p.Idle())
			}
		})
	}
}

// TestConnKeyHoldsNoSecret: the password is in the key only as a digest.
func TestConnKeyHoldsNoSecret(t *testing.T) {
	k := keyFor(t, &Dialer{}, false, "alice", "hunter2", 21)
	if s := fmt.Sprintf("%#v", k); strings.Contains(s, "hunter2") {
		t.Fatalf("key %s holds the password", s)
	}
}

// TestPoolReplacesClosedIdle: a session the server closed, or spoke on
// (a "421 Timeout" before closing), while it was idle is closed and not
// leased; the caller gets nil and dials anew, never an error.
func TestPoolReplacesClosedIdle(t *testing.T) {
	for _, tc := range []struct {
		name  string
		leave func(net.Conn)
	}{
		{"closed", func(c net.Conn) {}},
		{"said 421 and closed", func(c net.Conn) { c.Write([]byte("421 Timeout.\r\n")) }},
		{"said 421, still open", func(c net.Conn) { c.Write([]byte("421 Timeout.\r\n")); io.Copy(io.Discard, c) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gone := make(chan struct{})
			srv := newServer(t, func(c net.Conn) {
				lineServerOnce(c)
				tc.leave(c)
				close(gone)
			})
			d := &Dialer{}
			p := &Pool{}
			defer p.CloseIdle()
			s := dialSession(t, d, srv)
			if err := roundTrip(s); err != nil {
				t.Fatal(err)
			}
			k := keyFor(t, d, false, "", "", srv.port())
			p.Keep(k, s)
			if tc.name != "said 421, still open" {
				<-gone
			}
			waitReadable(t, s.c)
			if got := p.Lease(context.Background(), k, nil); got != nil {
				t.Fatal("leased a session the server had given up")
			}
			if !s.closed.Load() || p.Idle() != 0 {
				t.Fatalf("closed %v, idle %d: the dead session should be closed and gone", s.closed.Load(), p.Idle())
			}
		})
	}
}

// lineServerOnce answers one line.
func lineServerOnce(c net.Conn) {
	r := bufio.NewReader(c)
	if _, err := r.ReadString('\n'); err == nil {
		c.Write([]byte("ok\n"))
	}
}

// waitReadable waits, bounded, until the peer's last word or end has
// reached c's socket, so that the check below is not a race with the
// network stack.
func waitReadable(t *testing.T, c net.Conn) {
	t.Helper()
	await.Until(t, "the peer's close arrived", func() bool { return peekSocket(c) != restQuiet })
}

// TestPoolCancelIsolated: canceling the request that had a session
// before does nothing to the request that has it now, nor to another
// session kept meanwhile.
func TestPoolCancelIsolated(t *testing.T) {
	srv := newServer(t, lineServer)
	d := &Dialer{}
	p := &Pool{}
	defer p.CloseIdle()
	k := keyFor(t, d, false, "", "", srv.port())

	ctxA, cancelA := context.WithCancel(context.Background())
	defer cancelA()
	s := dialSession(t, d, srv)
	p.Keep(k, s)
	leased := p.Lease(ctxA, k, nil)
	if leased == nil || roundTrip(leased) != nil {
		t.Fatal("first lease failed")
	}
	p.Keep(k, leased)

	ctxB, cancelB := context.WithCancel(context.Background())
	defer cancelB()
	leased = p.Lease(ctxB, k, nil)
	if leased == nil {
		t.Fatal("second lease failed")
	}
	cancelA() // request A is long done
	if err := roundTrip(leased); err != nil {
		t.Fatalf("canceling an earlier request broke this one: %v", err)
	}

	// And canceling B while it holds the session fails B's I/O only.
	cancelB()
	if err := roundTrip(leased); !errors.Is(err, context.Canceled) {
		t.Fatalf("after B's cancel: %v, want context.Canceled", err)
	}
	p.Keep(k, leased) // a canceled connection is closed, never kept
	if p.Idle() != 0 || !s.closed.Load() {
		t.Fatalf("idle %d, closed %v: a canceled session must not be kept", p.Idle(), s.closed.Load())
	}
}

// TestPoolLeaseDoneContext: a request whose context is already done gets
// nothing, and the session stays good for the next.
func TestPoolLeaseDoneContext(t *testing.T) {
	srv := newServer(t, lineServer)
	d := &Dialer{}
	p := &Pool{}
	defer p.CloseIdle()
	k := keyFor(t, d, false, "", "", srv.port())
	p.Keep(k, dialSession(t, d, srv))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if p.Lease(ctx, k, nil) != nil {
		t.Fatal("leased to a done context")
	}
	s := p.Lease(context.Background(), k, nil)
	if s == nil || roundTrip(s) != nil {
		t.Fatal("the session was harmed by the done context")
	}
	s.Close()
}

// TestPoolCost: the candidate of the lowest cost is leased, the most
// recently kept among equals.
func TestPoolCost(t *testing.T) {
	srv := newServer(t, lineServer)
	d := &Dialer{}
	p := &Pool{}
	defer p.CloseIdle()
	k := keyFor(t, d, false, "", "", srv.port())
	var all []*testSession
	for _, dir := range []int{3, 1, 2, 1} {
		s := dialSession(t, d, srv)
		s.dir = dir
		all = append(all, s)
		p.Keep(k, s)
	}
	got := p.Lease(context.Background(), k, func(s schemes.Session) int { return s.(*testSession).dir })
	if got != schemes.Session(all[3]) {
		t.Fatalf("leased dir %d, want the later of the two at dir 1", got.(*testSession).dir)
	}
	if got := p.Lease(context.Background(), k, nil); got != schemes.Session(all[2]) {
		t.Fatal("without a cost, want the most recently kept")
	}
}

// TestPoolLimits: past MaxIdlePerKey the session kept is closed; past
// MaxIdle the one idle longest, of any key, is.
func TestPoolLimits(t *testing.T) {
	srv := newServer(t, lineServer)
	d := &Dialer{}
	p := &Pool{MaxIdlePerKey: 2, MaxIdle: 3}
	defer p.CloseIdle()
	k1 := keyFor(t, d, false, "a", "", srv.port())
	k2 := keyFor(t, d, false, "b", "", srv.port())
	s := make([]*testSession, 5)
	for i := range s {
		s[i] = dialSession(t, d, srv)
	}
	p.Keep(k1, s[0])
	p.Keep(k1, s[1])
	p.Keep(k1, s[2]) // over the per-key limit: closed
	if !s[2].closed.Load() || p.Idle() != 2 {
		t.Fatalf("per key: closed %v, idle %d", s[2].closed.Load(), p.Idle())
	}
	p.Keep(k2, s[3])
	p.Keep(k2, s[4]) // over the total: s[0], idle longest, goes
	if !s[0].closed.Load() || s[4].closed.Load() || p.Idle() != 3 {
		t.Fatalf("total: oldest closed %v, newest closed %v, idle %d", s[0].closed.Load(), s[4].closed.Load(), p.Idle())
	}
}

// TestPoolIdleTimeout: a session idle for IdleTimeout is closed by the
// pool itself, with no request to notice it; a long-running process
// holds no stale connections.
func TestPoolIdleTimeout(t *testing.T) {
	srv := newServer(t, lineServer)
	d := &Dialer{}
	p := &Pool{IdleTimeout: 50 * time.Millisecond}
	defer p.CloseIdle()
	s := dialSession(t, d, srv)
	p.Keep(keyFor(t, d, false, "", "", srv.port()), s)
	await.Until(t, "an idle session closed by the sweep", s.closed.Load)
	if p.Idle() != 0 {
		t.Fatalf("idle %d after the sweep", p.Idle())
	}
}

// TestPoolForeignConn: a session whose connection no transport Dialer
// made cannot be bound to a request, so it is never kept.
func TestPoolForeignConn(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	s := &testSession{c: a}
	p := &Pool{}
	p.Keep(keyFor(t, &Dialer{}, false, "", "", 21), s)
	if !s.closed.Load() || p.Idle() != 0 {
		t.Fatal("a foreign connection was kept")
	}
}
