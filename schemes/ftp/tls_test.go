package ftp

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// askTLS are the two ways an ftp: URL gets AUTH TLS: the Handler's
// --ftp-ssl, or the request's --ssl-reqd (Request.RequireTLS, which the
// fetch Client sets for every scheme claiming the TLS capability); says
// is how the library's messages name it, callers in callerWords.
var askTLS = []struct {
	flag, says, callers string
	set                 func(h *Handler, req *schemes.Request)
}{
	{"--ftp-ssl", "option ftp-ssl", "<ftp-ssl>", func(h *Handler, _ *schemes.Request) { h.ExplicitTLS = true }},
	{"--ssl-reqd", "fetch.RequireTLS", "<fetch.RequireTLS>", func(_ *Handler, req *schemes.Request) { req.RequireTLS = true }},
}

func TestExplicitTLS(t *testing.T) {
	for _, ask := range askTLS {
		t.Run(ask.flag, func(t *testing.T) {
			f := newFake(t)
			srv, cli := testTLS(t)
			f.tls = srv
			f.files["f.bin"] = "secret data"
			e := newEnv(t)
			req := e.req(t, f.url("f.bin"))
			e.d.TLS = cli
			ask.set(e.h, req)
			plan, err := e.h.Explain(req)
			if err != nil || !slices.Contains(plan, "AUTH TLS") || !slices.Contains(plan, "PROT P") {
				t.Errorf("plan %q, %v: want AUTH TLS and PROT P", plan, err)
			}
			resp, err := e.h.Fetch(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || string(b) != "secret data" {
				t.Fatalf("got %q, %v", b, err)
			}
			wantCmds(t, f, "AUTH TLS", "USER anonymous", "PASS me@example.org", "PBSZ 0", "PROT P", "PWD",
				"TYPE I", "SIZE f.bin", "EPSV", "RETR f.bin")
			if f.resumedCount() != 1 || e.d.handshakes.Load() != 2 {
				t.Errorf("%d data connections resumed the TLS session, want 1; %d handshakes by the Dialer, want 2",
					f.resumedCount(), e.d.handshakes.Load())
			}
		})
	}
}

// TestRequireTLSNeverReusesClearText: a control connection kept from a
// request in clear text is not lent to one that requires TLS, which dials
// its own and upgrades it.
func TestRequireTLSNeverReusesClearText(t *testing.T) {
	f := newFake(t)
	srv, cli := testTLS(t)
	f.tls = srv
	f.files["f.bin"] = "data"
	e := newEnv(t)
	for _, requireTLS := range []bool{false, true} {
		req := e.req(t, f.url("f.bin"))
		e.d.TLS, req.RequireTLS = cli, requireTLS
		resp, err := e.h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("RequireTLS %v: %v", requireTLS, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	c := f.commands()
	logins := 0
	for _, cmd := range c {
		if cmd == "USER anonymous" {
			logins++
		}
	}
	if i := slices.Index(c, "AUTH TLS"); logins != 2 || i < 0 || c[i+1] != "USER anonymous" {
		t.Errorf("commands %q: want a second control connection, upgraded before its login", c)
	}
}

func TestImplicitTLS(t *testing.T) {
	f := newFake(t)
	srv, cli := testTLS(t)
	f.tls, f.implicit = srv, true
	f.listing = "-rw-r--r-- 1 0 0 3 Jan 02  2026 x\r\n"
	e := newEnv(t)
	req := e.req(t, strings.Replace(f.url(""), "ftp://", "ftps://", 1))
	e.d.TLS = cli
	resp, err := e.h.List(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(entries) != 1 || entries[0].Name != "x" {
		t.Fatalf("entries %v, %v", entries, err)
	}
	wantCmds(t, f, "USER anonymous", "PASS me@example.org", "PBSZ 0", "PROT P", "PWD", "FEAT", "TYPE A", "EPSV", "LIST -a")
	if f.resumedCount() != 1 {
		t.Errorf("%d data connections resumed the TLS session, want 1", f.resumedCount())
	}
	// Every handshake went through the Dialer, in the control
	// connection's trace scope.
	if n, traced := e.d.handshakes.Load(), strings.Count(e.trace.String(), "* TLS "); n != 2 || traced != 2 {
		t.Errorf("%d TLS handshakes by the Dialer, %d traced; want 2 (control, data):\n%s", n, traced, e.trace)
	}
}

// TestTLSRefused: a refused AUTH TLS is a safety error that names what
// required TLS, as the library does or in the caller's words.
func TestTLSRefused(t *testing.T) {
	for _, ask := range askTLS {
		t.Run(ask.flag, func(t *testing.T) {
			f := newFake(t) // no TLS: AUTH is refused
			e := newEnv(t)
			req := e.req(t, f.url("f.bin"))
			ask.set(e.h, req)
			_, err := e.h.Fetch(context.Background(), req)
			if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), ask.says+" requires it") {
				t.Errorf("err %v, want a safety error naming %s", err, ask.says)
			}
			if c := f.commands(); len(c) != 1 || c[0] != "AUTH TLS" {
				t.Errorf("commands %q: no login may follow a refused AUTH TLS", c)
			}
			e.h.words = callerWords
			if _, err := e.h.Fetch(context.Background(), req); !strings.Contains(fmt.Sprint(err), ask.callers+" requires it") {
				t.Errorf("err %v, want a safety error naming %s", err, ask.callers)
			}
		})
	}
}

func TestTLSUnverified(t *testing.T) {
	f := newFake(t)
	srv, _ := testTLS(t)
	f.tls = srv
	e := newEnv(t)
	e.h.ExplicitTLS = true
	_, _, err := e.get(t, f.url("f.bin"))
	if schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("err %v, want a certificate failure (safety)", err)
	}
}
