package mailto

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestSessionReused: messages sent through one pool (one fetch Client)
// to the same server go on one SMTP session, reset between them; a
// request that requires TLS never takes a session that has none, so
// --ssl-reqd fails as it would on a new connection instead of sending in
// clear.
func TestSessionReused(t *testing.T) {
	r, port := fakeSMTP(t, nil)
	h := testHandler("")
	h.DryRun, h.Server = false, "127.0.0.1:"+strconv.Itoa(port)
	d, pool := &transport.Dialer{}, &transport.Pool{}
	defer pool.CloseIdle()
	send := func(body string, requireTLS bool) (*lines, error) {
		req := request(t, "mailto:joe@example.com?body="+body)
		req.Dialer, req.Conns, req.RequireTLS = d, pool, requireTLS
		tr := &lines{}
		req.Trace = tr
		_, err := h.Fetch(context.Background(), req)
		return tr, err
	}
	for _, body := range []string{"one", "two"} {
		if tr, err := send(body, false); err != nil {
			t.Fatalf("%s: %v\n%s", body, err, tr.text())
		}
	}
	tr, err := send("three", true)
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "STARTTLS") {
		t.Fatalf("--ssl-reqd on a kept clear session: %v, want a safety error about STARTTLS\n%s", err, tr.text())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.messages != 2 || !strings.Contains(r.data, "two") {
		t.Errorf("%d messages delivered, last %q; want one and two", r.messages, r.data)
	}
	if r.sessions != 2 {
		t.Errorf("%d connections, want 2: one for both messages, a new one for --ssl-reqd", r.sessions)
	}
}
