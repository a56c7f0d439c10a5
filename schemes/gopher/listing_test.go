package gopher

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// stallServer answers one request with first, then waits until release
// is closed before it sends rest; closed reports (once) whether the
// client closed the connection while the server waited.
type stallServer struct {
	ln      net.Listener
	release chan struct{}
	closed  chan bool
}

func newStallServer(t *testing.T, first, rest string) *stallServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &stallServer{ln: ln, release: make(chan struct{}), closed: make(chan bool, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, first)
		gone := make(chan struct{})
		go func() { c.Read(make([]byte, 1)); close(gone) }() // returns when the client closes
		select {
		case <-gone:
			s.closed <- true
		case <-s.release:
			s.closed <- false
			io.WriteString(c, rest)
		}
	}()
	t.Cleanup(func() {
		select {
		case <-s.release:
		default:
			close(s.release)
		}
		ln.Close()
		<-done
	})
	return s
}

func (s *stallServer) url(path string) string { return "gopher://" + s.ln.Addr().String() + path }

// within runs f and fails the test if it takes longer than a few seconds:
// a listing that does not stream would wait for the server forever.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still waiting after 5s (the listing does not stream)", what)
	}
}

// TestMenuStreams: the first entries of a menu are returned while the
// server has not sent the rest.
func TestMenuStreams(t *testing.T) {
	s := newStallServer(t, "iHello\t\tnull.host\t1\r\n0a\t/a\th\t70\r\n", "1b\t/b\th\t70\r\n.\r\n")
	var resp *schemes.Response
	var err error
	within(t, "Fetch", func() {
		resp, err = (&Handler{}).Fetch(context.Background(), &schemes.Request{URL: mustParse(t, s.url("/1/")), Dialer: &transport.Dialer{}})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	var first []schemes.Entry
	within(t, "Next", func() {
		for range 2 {
			e, err := resp.Listing.Next()
			if err != nil {
				t.Error(err)
				return
			}
			first = append(first, e)
		}
	})
	if len(first) != 2 || first[0].Kind != schemes.EntryInfo || first[1].Name != "a" {
		t.Fatalf("first entries %+v", first)
	}
	close(s.release)
	rest, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(rest) != 1 || rest[0].Name != "b" || rest[0].Kind != schemes.EntryDir {
		t.Errorf("rest %+v %v", rest, err)
	}
	if <-s.closed {
		t.Error("the client closed the connection before the end")
	}
}

// TestMenuEarlyClose: closing a listing before its end closes the
// connection at once, without waiting for the server.
func TestMenuEarlyClose(t *testing.T) {
	s := newStallServer(t, "0a\t/a\th\t70\r\n", ".\r\n")
	resp, err := (&Handler{}).Fetch(context.Background(), &schemes.Request{URL: mustParse(t, s.url("/1/")), Dialer: &transport.Dialer{}})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := resp.Listing.Next(); err != nil || e.Name != "a" {
		t.Fatalf("%+v %v", e, err)
	}
	within(t, "Close", func() {
		if err := resp.Close(); err != nil {
			t.Error(err)
		}
	})
	select {
	case closed := <-s.closed:
		if !closed {
			t.Error("server was released before the client closed")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not see the connection close")
	}
	if _, err := resp.Listing.Next(); err == nil {
		t.Error("Next after Close succeeded")
	}
	if err := resp.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestCanceledListingFails: once the fetch's context is canceled, Next
// fails even though the whole menu has arrived.
func TestCanceledListingFails(t *testing.T) {
	s := newFakeServer(t, "0a\t/a\th\t70\r\n0b\t/b\th\t70\r\n.\r\n")
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := (&Handler{}).Fetch(ctx, &schemes.Request{URL: mustParse(t, s.url("/1/")), Dialer: &transport.Dialer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	cancel()
	_, err = schemes.ReadAll(resp.Listing)
	if !errors.Is(err, context.Canceled) || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err %v (kind %v), want a cancellation", err, schemes.KindOf(err))
	}
}

// TestLocatorsFetchTheSameItem: fetching an entry's Locator gives what
// the item's URL typed by hand gives; an `h` item's Locator gives the
// redirect its Extra "url" names.
func TestLocatorsFetchTheSameItem(t *testing.T) {
	s := newFakeServer(t)
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	menu := "0Text\t/dir/a b.txt\t127.0.0.1\t" + port + "\r\n" +
		"1Sub\t/dir/sub/\t127.0.0.1\t" + port + "\r\n" +
		"9Bin\t/bin#1\t127.0.0.1\t" + port + "\r\n" +
		"hLink\tURL:http://example.org/x.html\t127.0.0.1\t" + port + "\r\n.\r\n"
	s.mu.Lock()
	s.routes = map[string]string{
		"/\r\n":            menu,
		"/dir/a b.txt\r\n": "text of a b\r\n.\r\n",
		"/dir/sub/\r\n":    "0Deeper\t/dir/sub/c\t127.0.0.1\t" + port + "\r\n.\r\n",
		"/bin#1\r\n":       "\x00\x01binary",
	}
	s.mu.Unlock()
	r, err := fetch(t, &Handler{}, s.url("/1/"))
	if err != nil {
		t.Fatal(err)
	}
	byHand := []string{s.url("/0/dir/a%20b.txt"), s.url("/1/dir/sub/"), s.url("/9/bin%231"), s.url("/hURL:http://example.org/x.html")}
	names := []string{"a b.txt", "sub", "bin#1", "x.html"}
	if len(r.entries) != len(byHand) {
		t.Fatalf("entries %+v", r.entries)
	}
	for i, e := range r.entries {
		if e.Name != names[i] {
			t.Errorf("entry %d: name %q, want %q", i, e.Name, names[i])
		}
		if e.Locator.String() != byHand[i] || e.Locator.Redacted() != byHand[i] {
			t.Errorf("entry %d: Locator %s, want %s", i, e.Locator, byHand[i])
		}
		got, err := fetchReq(t, &Handler{}, &schemes.Request{URL: e.Locator, Dialer: &transport.Dialer{}})
		if err != nil {
			t.Fatalf("%s: %v", e.Locator, err)
		}
		want, err := fetch(t, &Handler{}, byHand[i])
		if err != nil {
			t.Fatalf("%s: %v", byHand[i], err)
		}
		if got.body != want.body || len(got.entries) != len(want.entries) || got.resp.Redirect != want.resp.Redirect {
			t.Errorf("%s: got %q %+v %q, by hand %q %+v %q", e.Locator, got.body, got.entries, got.resp.Redirect,
				want.body, want.entries, want.resp.Redirect)
		}
	}
	if u, _ := r.entries[3].Extra.Get("url"); u != "http://example.org/x.html" {
		t.Errorf("link url %q", u)
	}
}

// TestTraceScopes: each connection gets a scope of its own, and the
// Dialer's notes land in it: a form takes two connections.
func TestTraceScopes(t *testing.T) {
	s := newFakeServer(t, askReply, "+-1\r\nok\r\n.\r\n")
	var buf bytes.Buffer
	h := &Handler{Form: Answers{"1": "a", "2": "pw", "3": "ftp", "4": "", "5": "1"}}
	resp, err := h.Fetch(context.Background(), &schemes.Request{URL: mustParse(t, s.url("/0/form.txt%09%09?")),
		Dialer: &transport.Dialer{}, Trace: transport.NewTrace(&buf)})
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Close()
	out := buf.String()
	for _, want := range []string{"* Connecting to 127.0.0.1", "> /form.txt\\t!\\r\\n", "[2] * Connecting to 127.0.0.1", "[2] > /form.txt\\t+\\t1"} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "pw\\r") {
		t.Errorf("password in trace:\n%s", out)
	}
}
