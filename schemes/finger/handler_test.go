package finger

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// server is a one-connection finger server on 127.0.0.1: it reads the
// query line, sends reply and closes, as RFC 1288 §2.1 says. got receives
// the line as it arrived, CRLF included.
type server struct {
	ln  net.Listener
	got chan string
}

func newServer(t *testing.T, reply string) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &server{ln: ln, got: make(chan string, 1)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		s.got <- line
		io.WriteString(c, reply)
	}()
	return s
}

func (s *server) url(path string) string { return "finger://" + s.ln.Addr().String() + path }

func request(t *testing.T, raw string) *schemes.Request {
	t.Helper()
	f, err := parseFinger(raw)
	if err != nil {
		t.Fatal(err)
	}
	return &schemes.Request{URL: f, Dialer: &transport.Dialer{}, Trace: schemes.NopTrace{}}
}

// fetch retrieves raw with h and returns the reply and the read error.
func fetch(t *testing.T, h *Handler, raw string) (string, error) {
	t.Helper()
	resp, err := h.Fetch(context.Background(), request(t, raw))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestFetchSendsTheQueryAndReturnsTheReply(t *testing.T) {
	const reply = "\r\nLogin: plan\nPlan:\n\x1b[1mbold\x1b[0m\r\n"
	for _, tc := range []struct{ path, line string }{
		{"/plan", "plan\r\n"},
		{"/w/plan", "/W plan\r\n"},
		{"/", "\r\n"},
		{"/W/", "/W\r\n"},
	} {
		s := newServer(t, reply)
		got, err := fetch(t, &Handler{}, s.url(tc.path))
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if line := <-s.got; line != tc.line {
			t.Errorf("%s: server got %q, want %q", tc.path, line, tc.line)
		}
		if got != reply {
			t.Errorf("%s: reply %q, want it byte for byte: %q", tc.path, got, reply)
		}
	}
}

func TestForwardingRefusedUnlessAsked(t *testing.T) {
	s := newServer(t, "forwarded\r\n")
	_, err := fetch(t, &Handler{words: schemes.Words{}}, s.url("/plan@elsewhere.example"))
	var e *schemes.Error
	if !errors.As(err, &e) || e.Kind != schemes.KindSafety || e.Part != "forward" {
		t.Fatalf("err = %v, want KindSafety naming forward", err)
	}
	if !strings.Contains(e.Msg, optForward) {
		t.Errorf("message %q does not name the option", e.Msg)
	}
	got, err := fetch(t, &Handler{Forward: true}, s.url("/plan@elsewhere.example"))
	if err != nil || got != "forwarded\r\n" {
		t.Fatalf("with Forward: %q, %v", got, err)
	}
	if line := <-s.got; line != "plan@elsewhere.example\r\n" {
		t.Errorf("server got %q", line)
	}
}

func TestReplyBounded(t *testing.T) {
	s := newServer(t, strings.Repeat("x", 100))
	got, err := fetch(t, &Handler{Max: 100}, s.url("/plan"))
	if err != nil || len(got) != 100 {
		t.Fatalf("a reply of exactly Max bytes: %d bytes, %v", len(got), err)
	}
	s = newServer(t, strings.Repeat("x", 101))
	got, err = fetch(t, &Handler{Max: 100}, s.url("/plan"))
	if schemes.KindOf(err) != schemes.KindProtocol || len(got) != 100 {
		t.Fatalf("a reply of Max+1 bytes: %d bytes, %v; want 100 and KindProtocol", len(got), err)
	}
}

// TestNoSecondLine: a URL whose fields were set in code, not parsed, is
// refused before anything is dialed when a field would end the line.
func TestNoSecondLine(t *testing.T) {
	f, err := parseFinger("finger://127.0.0.1:1/plan")
	if err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"plan\r\nroot", "plan\n", "a\tb"} {
		f.User = user
		req := &schemes.Request{URL: f, Dialer: &transport.Dialer{}, Trace: schemes.NopTrace{}}
		_, err := (&Handler{}).Fetch(context.Background(), req)
		if schemes.KindOf(err) != schemes.KindSafety {
			t.Errorf("user %q: err = %v, want KindSafety", user, err)
		}
	}
}

func TestExplain(t *testing.T) {
	h := &Handler{}
	plan, err := h.Explain(request(t, "finger://h:7979/W/plan"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"connect h:7979", `send "/W plan\r\n"`, "read the reply until the server closes (at most 1048576 bytes)"}
	if !slices.Equal(plan, want) {
		t.Errorf("plan %q, want %q", plan, want)
	}
	if _, err := h.Explain(request(t, "finger://h/plan@h2")); schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("a forwarding plan: err = %v, want KindSafety", err)
	}
}

func TestTrace(t *testing.T) {
	s := newServer(t, "ok\r\n")
	tr := &schemestest.Trace{}
	req := request(t, s.url("/plan"))
	req.Trace = tr
	resp, err := (&Handler{}).Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(tr.String(), "> plan") {
		t.Errorf("trace %q does not show the line sent", tr.String())
	}
}

// TestDeclaration: the options build the handler; forwarding is for
// named URLs only, so that a page's finger URL never gets it.
func TestDeclaration(t *testing.T) {
	d := Declaration()
	i := slices.IndexFunc(d.Options, func(o schemes.Option) bool { return o.Name == optForward })
	if i < 0 || !d.Options[i].OnlyNamed {
		t.Fatalf("%s is not declared OnlyNamed", optForward)
	}
	if d.Names[0].Port != 79 {
		t.Errorf("port %d, want 79 (RFC 1288 §2.1)", d.Names[0].Port)
	}
	r, err := schemes.Build([]schemes.Declaration{d}, schemes.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := r.Lookup(scheme)
	if !ok {
		t.Fatal("finger not registered")
	}
	h := sc.Handler.(*Handler)
	if h.Forward || h.max() != DefaultMax {
		t.Errorf("defaults: Forward %v, max %d", h.Forward, h.max())
	}
	if _, err := schemes.Build([]schemes.Declaration{d}, schemes.Options{optMax: 0}, nil); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("%s 0: err = %v, want KindUsage", optMax, err)
	}
}

// countingDialer counts Dial calls.
type countingDialer struct {
	transport.Dialer
	dials int
}

func (d *countingDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	d.dials++
	return d.Dialer.Dial(ctx, scheme, host, port)
}

func TestCanceledBeforeDial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := &countingDialer{}
	req := request(t, "finger://127.0.0.1:1/plan")
	req.Dialer = d
	_, err := (&Handler{}).Fetch(ctx, req)
	if schemes.KindOf(err) != schemes.KindCanceled || d.dials != 0 {
		t.Errorf("err = %v (kind %v), %d dials; want canceled, none", err, schemes.KindOf(err), d.dials)
	}
}
