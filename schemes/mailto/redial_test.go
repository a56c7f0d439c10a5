package mailto

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/transport"
)

// droppingSMTP is an SMTP server, in clear, that closes a session without
// a reply at its first command after a message it accepted and the RSET
// that follows (go-smtp's EHLO, then MAIL FROM): every session found dead
// when reused from the pool. While hold is open, it
// holds the reply to each message's "." and says so on held.
type droppingSMTP struct {
	ln   net.Listener
	hold chan struct{}
	held chan struct{}

	mu              sync.Mutex
	conns, messages int
	drops           int
}

func newDroppingSMTP(t *testing.T) *droppingSMTP {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &droppingSMTP{ln: ln, hold: make(chan struct{}), held: make(chan struct{}, 16)}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conns++
			f.mu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); f.serve(c) }()
		}
	}()
	return f
}

func (f *droppingSMTP) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	say := func(s string) { fmt.Fprintf(c, "%s\r\n", s) }
	say("220 fake ESMTP")
	served, data := false, false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		if data {
			if line == "." {
				data, served = false, true
				f.mu.Lock()
				f.messages++
				f.mu.Unlock()
				select {
				case <-f.hold:
				default:
					f.held <- struct{}{}
					<-f.hold
				}
				say("250 accepted")
			}
			continue
		}
		verb, _, _ := strings.Cut(strings.ToUpper(line), " ")
		if served && verb != "RSET" && verb != "QUIT" {
			f.mu.Lock()
			f.drops++
			f.mu.Unlock()
			return
		}
		switch verb {
		case "EHLO", "HELO":
			say("250 fake.test")
		case "MAIL", "RCPT", "RSET", "NOOP":
			say("250 ok")
		case "DATA":
			data = true
			say("354 go ahead")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 unknown")
		}
	}
}

func (f *droppingSMTP) counts() (conns, messages, drops int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conns, f.messages, f.drops
}

// TestStaleRedialedOnce: a server that drops every pooled SMTP session
// when it is used (its first command meets the close, before any reply) costs
// each message one new connection, however many idle ones the pool
// holds: the pool re-dials once (schemes.Conns.Use), and no message goes
// twice.
func TestStaleRedialedOnce(t *testing.T) {
	const idle = 3
	f := newDroppingSMTP(t)
	h := testHandler("")
	h.DryRun, h.Server = false, "127.0.0.1:"+strconv.Itoa(f.ln.Addr().(*net.TCPAddr).Port)
	d, pool := &transport.Dialer{}, &transport.Pool{}
	defer pool.CloseIdle()
	send := func() (*lines, error) {
		req := request(t, "mailto:joe@example.com?body=hi")
		req.Dialer, req.Conns = d, pool
		tr := &lines{}
		req.Trace = tr
		_, err := h.Fetch(context.Background(), req)
		return tr, err
	}
	// idle sessions in the pool: messages held at once, then accepted.
	errs := make(chan error, idle)
	for range idle {
		go func() { _, err := send(); errs <- err }()
	}
	for range idle {
		<-f.held
	}
	close(f.hold)
	for range idle {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if pool.Idle() != idle {
		t.Fatalf("%d idle sessions, want %d", pool.Idle(), idle)
	}
	for i := 1; i <= 2*idle; i++ {
		if tr, err := send(); err != nil {
			t.Fatalf("message %d: %v\n%s", i, err, tr.text())
		}
		if conns, messages, drops := f.counts(); conns != idle+i || drops != i || messages != idle+i {
			t.Fatalf("after message %d: %d connections, %d dropped on use, %d messages; want %d, %d, %d (one re-dial a message)",
				i, conns, drops, messages, idle+i, i, idle+i)
		}
	}
}
