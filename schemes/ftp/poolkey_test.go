package ftp

import (
	"context"
	"crypto/tls"
	"io"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestPoolKeepsSecurityApart: through one pool (as through a shared fetch
// Client), an FTPS control connection made by a Dialer without certificate
// checks (-k) is never leased to a request whose Dialer checks them, and
// one logged in as alice never serves bob; requests with the same
// settings (the same Dialer) share one.
func TestPoolKeepsSecurityApart(t *testing.T) {
	t.Run("tls", func(t *testing.T) {
		f := newFake(t)
		srv, trusting := testTLS(t)
		f.tls, f.implicit = srv, true
		f.files["f.bin"] = "data"
		e := newEnv(t)
		raw := strings.Replace(f.url("f.bin"), "ftp://", "ftps://", 1)
		dialers := map[*tls.Config]schemes.Dialer{} // one Dialer per TLS settings, as a Client makes
		get := func(cfg *tls.Config) error {
			req := e.req(t, raw)
			if dialers[cfg] == nil {
				dialers[cfg] = &transport.Dialer{TLS: cfg}
			}
			req.Dialer = dialers[cfg]
			resp, err := e.h.Fetch(context.Background(), req)
			if err != nil {
				return err
			}
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			return err
		}
		if err := get(&tls.Config{InsecureSkipVerify: true}); err != nil {
			t.Fatal(err)
		}
		// The system's roots do not trust the fake's certificate: a new
		// connection, refused, rather than the -k one.
		if err := get(nil); schemes.KindOf(err) != schemes.KindSafety {
			t.Fatalf("verifying request after a -k one: %v, want the certificate refused (KindSafety)", err)
		}
		if err := get(trusting); err != nil {
			t.Fatal(err)
		}
		if err := get(trusting); err != nil {
			t.Fatal(err)
		}
		if n := f.connCount(); n != 3 {
			t.Errorf("%d connections, want 3: -k, the refused one, and one shared by the two trusting requests", n)
		}
	})
	t.Run("login", func(t *testing.T) {
		f := newFake(t)
		f.files["f.bin"] = "data"
		e := newEnv(t)
		for _, user := range []string{"alice", "bob", "alice", "bob"} {
			raw := strings.Replace(f.url("f.bin"), "ftp://", "ftp://"+user+":pw@", 1)
			if _, _, err := e.get(t, raw); err != nil {
				t.Fatal(err)
			}
		}
		if n := f.connCount(); n != 2 {
			t.Errorf("%d connections, want one for alice and one for bob", n)
		}
		if users := strings.Count(e.trace.String(), "> USER "); users != 2 {
			t.Errorf("%d logins, want 2:\n%s", users, e.trace)
		}
	})
}
