package ldap

import (
	"context"
	"io"
	"net"
	"sync/atomic"
	"testing"

	ber "github.com/go-asn1-ber/asn1-ber"

	"github.com/urlget/urlget/transport"
)

// poolServer is an LDAP server on 127.0.0.1 that answers each search on
// any number of connections with one entry and success; with dropUsed
// set it closes a connection that served a search before when the next
// one comes, without a reply (an idle session dropped by the server).
type poolServer struct {
	ln       net.Listener
	conns    atomic.Int32
	dropUsed atomic.Bool
	drops    atomic.Int32
}

func newPoolServer(t *testing.T) *poolServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &poolServer{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.conns.Add(1)
			go p.serve(c)
		}
	}()
	return p
}

func (p *poolServer) serve(c net.Conn) {
	defer c.Close()
	served := 0
	for {
		req, err := ber.ReadPacket(c)
		if err != nil {
			return
		}
		tag, id := op(req)
		if tag != 3 {
			return // an unbind, or anything else: the end
		}
		if served > 0 && p.dropUsed.Load() {
			p.drops.Add(1)
			return
		}
		served++
		c.Write(append(entryMsg(id, "cn=a,dc=x", "cn", "a"), reply(id, 5, ldapResult(0, ""), nil)...))
	}
}

// TestSessionReused: a search read to its end gives its session back to
// the request's Conns, and the next search to the server takes it (one
// connection for three searches); a body closed before its end does not;
// an idle session the server dropped is replaced once.
func TestSessionReused(t *testing.T) {
	p := newPoolServer(t)
	pool := &transport.Pool{}
	defer pool.CloseIdle()
	d := &transport.Dialer{} // one Dialer: sessions are pooled by its identity
	get := func(read bool) error {
		req := request(t, "ldap://"+p.ln.Addr().String()+"/dc=x??one")
		req.Conns, req.Dialer = pool, d
		resp, err := (&Handler{}).Fetch(context.Background(), req)
		if err != nil {
			return err
		}
		defer resp.Close()
		if !read {
			return nil
		}
		b, err := io.ReadAll(resp.Body)
		if want := "dn: cn=a,dc=x\ncn: a\n\n"; err == nil && string(b) != want {
			t.Errorf("%q, want %q", b, want)
		}
		return err
	}
	for i := range 3 {
		if err := get(true); err != nil {
			t.Fatalf("search %d: %v", i+1, err)
		}
	}
	if n, idle := p.conns.Load(), pool.Idle(); n != 1 || idle != 1 {
		t.Fatalf("%d connections, %d idle; want 1 and 1", n, idle)
	}
	if err := get(false); err != nil || pool.Idle() != 0 {
		t.Fatalf("a body closed unread: %v, %d idle; want the session closed", err, pool.Idle())
	}
	if err := get(true); err != nil || p.conns.Load() != 2 || pool.Idle() != 1 {
		t.Fatalf("%v, %d connections, %d idle; want 2 and 1", err, p.conns.Load(), pool.Idle())
	}
	p.dropUsed.Store(true)
	if err := get(true); err != nil || p.drops.Load() != 1 || p.conns.Load() != 3 {
		t.Fatalf("a dropped session: %v, %d drops, %d connections; want one re-dial", err, p.drops.Load(), p.conns.Load())
	}
}
