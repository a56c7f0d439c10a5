package ftp

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// gatedDialer holds every data connection's dial until the server has
// read a transfer command, or fails it after a while: a client that
// waits for the connection before it sends RETR never gets one.
type gatedDialer struct {
	*countDialer
	f    *fakeFTP
	fail bool // fail the data dial once the command is in
}

func (g *gatedDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	if port == g.f.port() {
		return g.countDialer.Dial(ctx, scheme, host, port)
	}
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if slices.ContainsFunc(g.f.commands(), func(c string) bool {
			return strings.HasPrefix(c, "RETR ") || strings.HasPrefix(c, "LIST")
		}) {
			break
		}
		if time.Now().After(deadline) {
			return nil, errors.New("no transfer command while the data connection was being made")
		}
	}
	if g.fail {
		return nil, &schemes.Error{Scheme: scheme, Phase: "connect", Kind: schemes.KindConnect, Msg: "refused (test)"}
	}
	return g.countDialer.Dial(ctx, scheme, host, port)
}

// TestTransferCommandOverlapsDataConnection: RETR and LIST go out while
// the data connection is being made, so the two round trips overlap; a
// data connection that fails after the server's 150 leaves the control
// connection out of the pool (the server waits for a connection that
// never comes); a refused RETR closes what the dial made.
func TestTransferCommandOverlapsDataConnection(t *testing.T) {
	f := newFake(t)
	f.files["a.txt"] = "alpha\n"
	f.listing = "-rw-r--r-- 1 u g 6 Jan 01 2020 a.txt\r\n"
	e := newEnv(t)
	e.d = &countDialer{Dialer: e.d.Dialer}
	g := &gatedDialer{countDialer: e.d, f: f}
	req := e.req(t, f.url("/a.txt"))
	req.Dialer = g
	if got, _ := e.fetch(t, req); got != "alpha\n" {
		t.Fatalf("got %q", got)
	}
	lreq := e.req(t, f.url("/"))
	lreq.Dialer = g
	resp, err := e.h.Fetch(context.Background(), lreq)
	if err != nil {
		t.Fatal(err)
	}
	if entries, err := schemes.ReadAll(resp.Listing); err != nil || len(entries) != 1 {
		t.Fatalf("listing %v, %v", entries, err)
	}
	if e.idle() != 1 {
		t.Fatalf("%d idle control connections, want the one reused", e.idle())
	}

	g.fail = true
	req = e.req(t, f.url("/a.txt"))
	req.Dialer = g
	_, err = e.h.Fetch(context.Background(), req)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Phase != "data" || !se.Retryable {
		t.Fatalf("data connection failed after 150: %v, want a retryable error of phase data", err)
	}
	if e.idle() != 0 {
		t.Errorf("%d idle control connections after the failed data connection, want none", e.idle())
	}

	g.fail = false
	req = e.req(t, f.url("/missing.txt"))
	req.Dialer = g
	if _, err = e.h.Fetch(context.Background(), req); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}
