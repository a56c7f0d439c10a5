package gemini

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// cuttingServer answers every request with reply over TLS and then ends
// the connection: with close_notify (tls.Conn.Close) when clean, else by
// closing the TCP connection under TLS, as a server that crashed or a
// middlebox that cut it does.
func cuttingServer(t *testing.T, reply string, clean bool) string {
	t.Helper()
	now := time.Now()
	cert := selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveEach(t, ln, func(raw net.Conn) {
		tc := tls.Server(raw, &tls.Config{Certificates: []tls.Certificate{cert}})
		buf := make([]byte, 1100)
		if _, err := tc.Read(buf); err != nil { // the request line
			return
		}
		io.WriteString(tc, reply)
		if clean {
			tc.Close()
		}
	})
	return "gemini://" + ln.Addr().String()
}

// TestBodyCut: a body ends at the server's close_notify; a connection
// cut without one is a truncation (KindConnect, io.ErrUnexpectedEOF in
// its chain), whether the body is a document or a page of links — though
// crypto/tls reads an end between two records as an end.
func TestBodyCut(t *testing.T) {
	h := &Handler{KnownHosts: filepath.Join(t.TempDir(), "known")}
	for _, c := range []struct {
		reply string
		list  bool
	}{
		{"20 text/plain\r\nthe first half of the", false},
		{"20 text/gemini\r\n=> a.gmi A\n=> b.gmi B\n", true},
	} {
		base := cuttingServer(t, c.reply, true)
		_, body, entries, err := get(t, h, base+"/", c.list, nil)
		if err != nil || (!c.list && body != "the first half of the") || (c.list && len(entries) != 2) {
			t.Errorf("ended with close_notify: %q %d entries %v", body, len(entries), err)
		}

		base = cuttingServer(t, c.reply, false)
		loc, _ := parse(base + "/")
		resp, err := h.fetch(t.Context(), &schemes.Request{URL: loc, Dialer: &transport.Dialer{}}, c.list)
		if err != nil {
			t.Fatal(err)
		}
		if c.list {
			_, err = schemes.ReadAll(resp.Listing)
			resp.Listing.Close()
		} else {
			var b []byte
			b, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) != "the first half of the" {
				t.Errorf("the bytes before the cut: %q", b)
			}
		}
		if schemes.KindOf(err) != schemes.KindConnect || !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "close_notify") {
			t.Errorf("cut without close_notify (list %v): %v, want a truncation", c.list, err)
		}
	}
}
