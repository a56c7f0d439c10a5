package mailto

import (
	"bufio"
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// scriptConn reads what a test gives it and discards what is written.
type scriptConn struct {
	net.Conn
	in []byte
}

func (c *scriptConn) Read(p []byte) (int, error) {
	if len(c.in) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.in)
	c.in = c.in[n:]
	return n, nil
}

func (c *scriptConn) Write(p []byte) (int, error) { return len(p), nil }

// TestRepliesUnread: what comes after the reply to the last command
// written is counted unread, however the reads cut it; a write starts
// over. Before any command, everything the server says is unasked.
func TestRepliesUnread(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write bool
		reads []string
		want  int
	}{
		{"one reply", true, []string{"250 ok\r\n"}, 0},
		{"a stray line after it", true, []string{"250 ok\r\n250 stray\r\n"}, 11},
		{"multi-line reply", true, []string{"250-a\r\n250 b\r\n"}, 0},
		{"bytes after a multi-line reply", true, []string{"250-a\r\n250 b\r\nxyz"}, 3},
		{"cut across reads", true, []string{"25", "0 ok\r", "\n2", "50 x\r\n"}, 7},
		{"unasked", false, []string{"421 bye\r\n"}, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &scriptConn{}
			b := bounded(sc)
			b.unread = 99 // a write forgets what came before
			if tc.write {
				b.Write([]byte("RSET\r\n"))
			} else {
				b.unread = 0
			}
			for _, r := range tc.reads {
				sc.in = []byte(r)
				if _, err := b.Read(make([]byte, 64)); err != nil {
					t.Fatal(err)
				}
			}
			if b.unread != tc.want {
				t.Errorf("unread %d, want %d", b.unread, tc.want)
			}
		})
	}
}

// scriptedSMTP is an SMTP server that answers RSET with its 250 and a
// stray reply after it, and counts its sessions.
type scriptedSMTP struct {
	ln       net.Listener
	mu       sync.Mutex
	sessions int
	messages int
}

func newScriptedSMTP(t *testing.T) *scriptedSMTP {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptedSMTP{ln: ln}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { s.serve(c) })
		}
	})
	return s
}

func (s *scriptedSMTP) serve(c net.Conn) {
	defer c.Close()
	s.mu.Lock()
	s.sessions++
	s.mu.Unlock()
	r := bufio.NewReader(c)
	io.WriteString(c, "220 scripted\r\n")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		verb, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(line)), " ")
		switch verb {
		case "EHLO":
			io.WriteString(c, "250 scripted\r\n")
		case "DATA":
			io.WriteString(c, "354 go on\r\n")
			for l := ""; l != ".\r\n"; {
				if l, err = r.ReadString('\n'); err != nil {
					return
				}
			}
			s.mu.Lock()
			s.messages++
			s.mu.Unlock()
			io.WriteString(c, "250 queued\r\n")
		case "RSET":
			io.WriteString(c, "250 reset\r\n250 nobody asked\r\n")
		case "QUIT":
			io.WriteString(c, "221 bye\r\n")
			return
		default:
			io.WriteString(c, "250 ok\r\n")
		}
	}
}

// TestStrayReplyNotReused: a session whose server said more after RSET's
// reply is out of step: the pool closes it, and the next message goes on
// a new session, delivered. Kept, its MAIL FROM would have read the
// stray reply as its own.
func TestStrayReplyNotReused(t *testing.T) {
	s := newScriptedSMTP(t)
	h := testHandler("")
	h.DryRun, h.Server = false, "127.0.0.1:"+strconv.Itoa(s.ln.Addr().(*net.TCPAddr).Port)
	d, pool := &transport.Dialer{}, &transport.Pool{}
	defer pool.CloseIdle()
	for _, body := range []string{"one", "two"} {
		req := request(t, "mailto:joe@example.com?body="+body)
		req.Dialer, req.Conns = d, pool
		if _, err := h.Fetch(context.Background(), req); err != nil {
			t.Fatalf("%s: %v (%v)", body, err, schemes.KindOf(err))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.messages != 2 || s.sessions != 2 {
		t.Errorf("%d messages on %d sessions, want 2 on 2: the session out of step is not reused", s.messages, s.sessions)
	}
}
