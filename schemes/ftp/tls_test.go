package ftp

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

func TestExplicitTLS(t *testing.T) {
	f := newFake(t)
	srv, cli := testTLS(t)
	f.tls = srv
	f.files["f.bin"] = "secret data"
	e := newEnv(t)
	e.h.ExplicitTLS = true
	req := e.req(t, f.url("f.bin"))
	req.TLS = cli
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
		"TYPE I", "SIZE f.bin", "MDTM f.bin", "EPSV", "RETR f.bin")
}

func TestImplicitTLS(t *testing.T) {
	f := newFake(t)
	srv, cli := testTLS(t)
	f.tls, f.implicit = srv, true
	f.listing = "-rw-r--r-- 1 0 0 3 Jan 02  2026 x\r\n"
	e := newEnv(t)
	req := e.req(t, strings.Replace(f.url(""), "ftp://", "ftps://", 1))
	req.TLS = cli
	entries, err := e.h.List(context.Background(), req)
	if err != nil || len(entries) != 1 || entries[0].Name != "x" {
		t.Fatalf("entries %v, %v", entries, err)
	}
	wantCmds(t, f, "USER anonymous", "PASS me@example.org", "PBSZ 0", "PROT P", "PWD", "FEAT", "TYPE A", "EPSV", "LIST")
}

func TestTLSRefused(t *testing.T) {
	f := newFake(t) // no TLS: AUTH is refused
	e := newEnv(t)
	e.h.ExplicitTLS = true
	_, _, err := e.get(t, f.url("f.bin"))
	if schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("err %v, want a safety error", err)
	}
	if c := f.commands(); len(c) != 1 || c[0] != "AUTH TLS" {
		t.Errorf("commands %q: no login may follow a refused AUTH TLS", c)
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
