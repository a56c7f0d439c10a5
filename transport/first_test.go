package transport

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// askServer answers each line with "ok", but "no" with "no" (a refusal),
// until the line "drop" (closed at once: a server's idle timeout met by
// the next request) or "half" ("o" and closed: a reply cut short).
func askServer(c net.Conn) {
	r := bufio.NewReader(c)
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch l {
		case "drop\n":
			return
		case "half\n":
			c.Write([]byte("o"))
			return
		case "no\n":
			c.Write([]byte("no\n"))
			continue
		}
		if _, err := c.Write([]byte("ok\n")); err != nil {
			return
		}
	}
}

// ask sends line on s and reads the answer, an error as a handler makes
// it (KindConnect for the end of the connection).
func ask(s *testSession, line string) error {
	if _, err := s.c.Write([]byte(line + "\n")); err != nil {
		return schemes.IOError("ftp", "ask", err)
	}
	l, err := bufio.NewReader(s.c).ReadString('\n')
	if err != nil {
		return schemes.IOError("ftp", "ask", err)
	}
	if l != "ok\n" {
		return &schemes.Error{Scheme: "ftp", Phase: "ask", Kind: schemes.KindProtocol, Msg: "said " + l}
	}
	return nil
}

// TestUseFirst: a kept session whose first exchange meets the end of the
// connection before any byte of a reply is stale, and replaced by one new
// session; one whose reply was cut short, or refused, is no stale session
// (the server did answer) and fails the request; every failed session is
// dropped.
func TestUseFirst(t *testing.T) {
	for _, tc := range []struct {
		line      string // the exchange on the kept session
		dials     int32  // sessions dialed by UseFirst
		wantErr   schemes.Kind
		wantTrace string
	}{
		{"drop", 1, 0, "the idle session was closed by the server: connecting again"},
		{"half", 0, schemes.KindConnect, ""},
		{"no", 0, schemes.KindProtocol, ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			srv := newServer(t, askServer)
			d := &Dialer{}
			p := &Pool{}
			defer p.CloseIdle()
			kept := dialSession(t, d, srv)
			if err := ask(kept, "hello"); err != nil {
				t.Fatal(err)
			}
			key := keyFor(t, d, false, "", "", srv.port())
			p.Keep(key, kept)
			tr := schemestest.NewScopeTrace()
			req := &schemes.Request{Dialer: d, Conns: p, Trace: tr}
			var dials, drops atomic.Int32
			var resumed schemes.Trace
			first := First[*testSession]{
				Scheme: "ftp", Noun: "session", Peer: "with " + srv.addr(),
				Dial: func(context.Context) (*testSession, error) {
					dials.Add(1)
					return dialSession(t, d, srv), nil
				},
				Resume: func(_ *testSession, tr schemes.Trace) { resumed = tr },
				Exchange: func(s *testSession) error {
					if s == kept {
						return ask(s, tc.line)
					}
					return ask(s, "hello")
				},
				Drop: func(s *testSession) { drops.Add(1); s.Close() },
			}
			s, err := UseFirst(context.Background(), req, key, first)
			if got := schemes.KindOf(err); got != tc.wantErr || (err == nil) != (tc.wantErr == 0) {
				t.Fatalf("err %v (kind %v), want kind %v", err, got, tc.wantErr)
			}
			if dials.Load() != tc.dials || drops.Load() != 1 || !kept.closed.Load() {
				t.Errorf("%d dialed, %d dropped, kept one closed %t: want %d, 1, true", dials.Load(), drops.Load(), kept.closed.Load(), tc.dials)
			}
			if err == nil && (s == nil || s == kept) {
				t.Errorf("session %p, want the new one", s)
			}
			if err != nil && s != nil {
				t.Errorf("a failed use returned session %p", s)
			}
			if resumed == nil {
				t.Error("the kept session was not resumed")
			}
			lines := tr.String()
			if !strings.Contains(lines, "1 * reusing the session with "+srv.addr()) {
				t.Errorf("trace lacks the reuse, in the request's scope:\n%s", lines)
			}
			if tc.wantTrace != "" && !strings.Contains(lines, "1 * "+tc.wantTrace) || tc.wantTrace == "" && strings.Contains(lines, "connecting again") {
				t.Errorf("trace, want %q:\n%s", tc.wantTrace, lines)
			}
		})
	}
}

// TestUseFirstNew: without a kept session, a new one serves once, not
// retried when it fails (stale is for kept sessions only); a done context
// fails before anything is dialed, as the request's scheme says.
func TestUseFirstNew(t *testing.T) {
	srv := newServer(t, askServer)
	d := &Dialer{}
	req := &schemes.Request{Dialer: d, Conns: &Pool{}}
	key := keyFor(t, d, false, "", "", srv.port())
	var dials atomic.Int32
	first := First[*testSession]{
		Scheme: "wais",
		Dial: func(context.Context) (*testSession, error) {
			dials.Add(1)
			return dialSession(t, d, srv), nil
		},
		Resume:   func(*testSession, schemes.Trace) { t.Error("a new session resumed") },
		Exchange: func(s *testSession) error { return ask(s, "drop") },
		Drop:     func(s *testSession) { s.Close() },
	}
	if _, err := UseFirst(context.Background(), req, key, first); schemes.KindOf(err) != schemes.KindConnect || dials.Load() != 1 {
		t.Errorf("err %v, %d dialed: want KindConnect after one", err, dials.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := UseFirst(ctx, req, key, first)
	var e *schemes.Error
	if !errors.As(err, &e) || e.Scheme != "wais" || e.Phase != "dial" || !errors.Is(err, context.Canceled) || dials.Load() != 1 {
		t.Errorf("done context: %v (%+v), %d dialed; want a wais dial error, none dialed", err, e, dials.Load())
	}
}
