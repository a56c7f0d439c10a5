package ftp

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestTraceScopes: each control connection has a trace scope of its own,
// which the Dialer's notes and the data connections share, and which a
// pooled connection keeps when it serves the next request.
func TestTraceScopes(t *testing.T) {
	f := newFake(t)
	f.files["a.bin"] = "a"
	f.files["b.bin"] = "b"
	e := newEnv(t)
	var buf bytes.Buffer
	root := transport.NewTrace(&buf)
	fetch := func(name string) *schemes.Response {
		t.Helper()
		req := e.req(t, f.url(name))
		req.Trace = root
		resp, err := e.h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	// Two transfers at once: two connections, two scopes.
	first := fetch("a.bin")
	second := fetch("b.bin")
	for _, r := range []*schemes.Response{first, second} {
		io.ReadAll(r.Body)
		r.Body.Close()
	}
	// The next request reuses a pooled connection, in that connection's
	// scope: no third scope is made.
	r := fetch("a.bin")
	io.ReadAll(r.Body)
	r.Body.Close()
	out := buf.String()
	for _, want := range []string{
		"* Connected to 127.0.0.1:", "> RETR a.bin", // the first scope: no mark
		"[2] * Connected to 127.0.0.1:", "[2] > USER anonymous", "[2] * data connection to", "[2] > RETR b.bin",
		"reusing control connection",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[3]") || f.connCount() != 2 {
		t.Errorf("%d connections; trace:\n%s", f.connCount(), out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "reusing control connection") && !strings.HasPrefix(l, "[2] ") && !strings.HasPrefix(l, "* ") {
			t.Errorf("reuse noted outside the connection's scope: %q", l)
		}
	}
}
