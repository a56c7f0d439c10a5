package wais

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// fakeServer answers each request on a connection with answer(request
// APDU), written as a whole message; a nil answer closes the connection.
type fakeServer struct {
	ln     net.Listener
	hangUp bool // close each connection after its first reply
	// dropServed closes a connection, without a reply, at its first
	// request after one answered: every session found dead when reused
	// from the pool (counted in drops).
	dropServed atomic.Bool
	drops      atomic.Int32
	// split writes the 25-byte header and the APDU apart, with Nagle's
	// algorithm on, as freeWAIS-sf does (set before the first request).
	split  atomic.Bool
	mu     sync.Mutex
	conns  int
	ranges []string // "start-end" of each retrieval
}

func newFake(t testing.TB, answer func(apdu []byte) []byte) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{ln: ln}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conns++
			f.mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				br := bufio.NewReader(c)
				for served := false; ; served = true {
					var h [25]byte
					if _, err := io.ReadFull(br, h[:]); err != nil {
						return
					}
					n, _ := strconv.Atoi(string(h[:10]))
					apdu := make([]byte, n)
					if _, err := io.ReadFull(br, apdu); err != nil {
						return
					}
					if m := rangeRE.FindSubmatch(apdu); m != nil {
						f.mu.Lock()
						f.ranges = append(f.ranges, string(m[1])+"-"+string(m[2]))
						f.mu.Unlock()
					}
					if served && f.dropServed.Load() {
						f.drops.Add(1)
						return
					}
					out := answer(apdu)
					if out == nil {
						return
					}
					if f.split.Load() && len(out) > 25 {
						c.(*net.TCPConn).SetNoDelay(false)
						c.Write(out[:25])
						out = out[25:]
					}
					c.Write(out)
					if f.hangUp {
						return
					}
				}
			}()
		}
	}()
	return f
}

// rangeRE finds the byte range of a retrieval request: the values of the
// "wb ro" and "wb rl" terms (one length byte each, as they are short).
var rangeRE = regexp.MustCompile(`(?s)wb ro ig ig ig ig-.([0-9]+)\.\x01a,\x11wb rl ig ig ig ig-.([0-9]+)`)

func (f *fakeServer) connCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conns
}

func (f *fakeServer) url(path string) string { return "wais://" + f.ln.Addr().String() + path }

// message wraps a reply APDU in its 25-byte header.
func message(apdu []byte) []byte {
	return append([]byte(fmt.Sprintf("%010dz2wais        0", len(apdu))), apdu...)
}

// textReply is a retrieval reply holding text, then diagnostics given as
// "SFmessage".
func textReply(text []byte, diags ...string) []byte {
	var ext []byte
	if text != nil {
		grp := append([]byte{0x74, 0x03, 0x02, 0x01, 'x', 0x75, 0x01, 0x00, 0x7f}, appendCI(nil, len(text))...)
		grp = append(grp, text...)
		ext = append(ext, 0x81, 0x19)
		ext = appendCI(ext, len(grp))
		ext = append(ext, grp...)
	}
	for _, d := range diags {
		v := append([]byte(d), 1)
		ext = append(ext, 0x1c, byte(len(v)>>8), byte(len(v)))
		ext = append(ext, v...)
		ext = append(ext, 0x1d)
	}
	b := []byte{0x00, 0x11, 0x17, 0x00, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x1b, 0x01, 0x00, 0x02, 0x01, 0x33, 0x63}
	b = appendCI(b, len(ext))
	return message(append(b, ext...))
}

// docServer serves doc by byte range, as freeWAIS-sf does: a range past
// the end gets the rest and SF, a start past the end SF alone.
func docServer(t testing.TB, doc []byte) *fakeServer {
	var f *fakeServer
	f = newFake(t, func(apdu []byte) []byte {
		m := rangeRE.FindSubmatch(apdu)
		if m == nil {
			return textReply(nil, "SFBad DocID in request")
		}
		start, _ := strconv.Atoi(string(m[1]))
		end, _ := strconv.Atoi(string(m[2]))
		switch {
		case start >= len(doc):
			return textReply(nil, "SFRequest out of range")
		case end > len(doc):
			return textReply(doc[start:], "SFRequest out of range")
		}
		return textReply(doc[start:end])
	})
	return f
}

// recTrace records the trace of a test request.
type recTrace = schemestest.Trace

func request(t testing.TB, raw string) (*schemes.Request, *recTrace) {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	tr := &recTrace{}
	return &schemes.Request{URL: w, Dialer: testDialer, Conns: testConns, Trace: tr}, tr
}

// testDialer and testConns serve every request of the tests, as one fetch
// Client's do: a session kept after one request is leased by the next
// to the same server.
var (
	testDialer = &transport.Dialer{}
	testConns  = &transport.Pool{}
)

func get(t testing.TB, raw string) ([]byte, *schemes.Response, *recTrace, error) {
	t.Helper()
	req, tr := request(t, raw)
	h := &Handler{}
	defer testConns.CloseIdle()
	resp, err := h.Fetch(context.Background(), req)
	if err != nil {
		return nil, nil, tr, err
	}
	defer resp.Close()
	b, err := io.ReadAll(resp.Body)
	return b, resp, tr, err
}

func corpus(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}

// TestRetrieveInChunks: a 25,000-byte document with its length in the
// URL comes in ranges of 10,000 on one connection, exactly; without a
// length, retrieval stops at the first short chunk.
func TestRetrieveInChunks(t *testing.T) {
	doc := corpus(25000)
	for _, tt := range []struct {
		length string
		ranges string
	}{
		{"25000", "0-10000 10000-20000 20000-25000"},
		{"0", "0-10000 10000-20000 20000-30000"},
	} {
		f := docServer(t, doc)
		b, resp, tr, err := get(t, f.url("/demo/TEXT/"+tt.length+"/1=x;2=db;3=doc;"))
		if err != nil || !bytes.Equal(b, doc) {
			t.Fatalf("length %s: %d bytes, %v\n%s", tt.length, len(b), err, tr)
		}
		if got := strings.Join(f.ranges, " "); got != tt.ranges || f.connCount() != 1 {
			t.Errorf("length %s: ranges %q on %d connections, want %q", tt.length, got, f.connCount(), tt.ranges)
		}
		if resp.Type != "text/plain" {
			t.Errorf("type %q", resp.Type)
		}
		if !strings.Contains(tr.String(), "> Retrieve DocID=1=x;2=db;3=doc; TEXT bytes 10000-20000") || !strings.Contains(tr.String(), "< DocumentText 10000 bytes") {
			t.Errorf("trace:\n%s", tr)
		}
	}
}

func TestRetrieveErrors(t *testing.T) {
	doc := corpus(500)
	f := docServer(t, doc)
	// A length beyond the document: the server's SF past the end.
	if _, _, _, err := get(t, f.url("/demo/TEXT/900/1=x;")); schemes.KindOf(err) != schemes.KindProtocol || !strings.Contains(err.Error(), "ended at byte 500 of the 900") {
		t.Errorf("short document: %v", err)
	}
	// A bad DocID on the first chunk: not found, exit 3.
	bad := newFake(t, func([]byte) []byte { return textReply(nil, "SFBad DocID in request") })
	if _, _, _, err := get(t, bad.url("/demo/TEXT/10/1=x;")); schemes.KindOf(err) != schemes.KindNotFound || !strings.Contains(err.Error(), "Bad DocID") {
		t.Errorf("bad DocID: %v", err)
	}
	// The server's buffer overflowed: a header with msg_len 0, exit 6.
	over := newFake(t, func([]byte) []byte { return []byte("0000000000z2wais        0") })
	if _, _, _, err := get(t, over.url("/demo/TEXT/10/1=x;")); schemes.KindOf(err) != schemes.KindProtocol || !strings.Contains(err.Error(), "overflowed") {
		t.Errorf("overflow: %v", err)
	}
	// A reply cut short, a huge msg_len, garbage: errors, nothing allocated.
	cut := newFake(t, func(a []byte) []byte { r := textReply([]byte("abc")); return r[:len(r)-2] })
	cut.hangUp = true
	huge := newFake(t, func([]byte) []byte { return []byte("9999999999z2wais        0") })
	junk := newFake(t, func([]byte) []byte { return message([]byte{0x00, 0x02, 0x09, 0x09}) })
	for name, s := range map[string]*fakeServer{"cut": cut, "huge": huge, "junk": junk} {
		if _, _, _, err := get(t, s.url("/demo/TEXT/10/1=x;")); err == nil {
			t.Errorf("%s: no error", name)
		} else if k := schemes.KindOf(err); name != "cut" && k != schemes.KindProtocol {
			t.Errorf("%s: %v (kind %v)", name, err, k)
		}
	}
}

// TestSearch lists the hits in the server's order with their URLs; an
// unknown database is not found (exit 3) and named.
func TestSearch(t *testing.T) {
	var got []byte
	f := newFake(t, func(apdu []byte) []byte { got = apdu; return message(notesSearchReply(t)) })
	req, tr := request(t, f.url("/demo?apple+pie"))
	h := &Handler{Max: 7}
	defer testConns.CloseIdle()
	resp, err := h.List(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	ents, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(ents) != 2 {
		t.Fatalf("%+v %v", ents, err)
	}
	if !bytes.Contains(got, []byte("\x6a\x09apple pie")) || !bytes.HasSuffix(got, []byte{0x72, 0x01, 7}) {
		t.Errorf("request %x", got)
	}
	e := ents[0]
	want := "wais://" + f.ln.Addr().String() + "/demo/TEXT/107/1=vm%3A2210;2=/var/lib/waisdb/index/demo;3=0%20107%20/var/lib/waisdb/corpus/orchard.txt;" +
		"4=vm%3A2210;5=/var/lib/waisdb/index/demo;6=0%20107%20/var/lib/waisdb/corpus/orchard.txt;7=%00;"
	if e.Locator == nil || e.Locator.String() != want || e.Title != "Orchard management" || e.Size != 107 || e.Extra.String() != "score=462 lines=2 type=TEXT" {
		t.Errorf("entry %+v (%v)", e, e.Locator)
	}
	if !strings.Contains(tr.String(), `> Search db=demo seed="apple pie" max=7`) || !strings.Contains(tr.String(), "< SearchResponse status=1 records=2 groups=2") {
		t.Errorf("trace:\n%s", tr)
	}
	// The hit's URL parses back to the DocID the server sent.
	d, err := parseDocument(e.Locator.(*URL))
	if err != nil || !bytes.Equal(d.docID, notesDocID(t)) || d.length != 107 || d.wtype != "TEXT" {
		t.Errorf("document %+v %v", d, err)
	}
	s1 := newFake(t, func([]byte) []byte {
		v := append([]byte("S1The following database is not available: nope"), 0)
		ext := append([]byte{0x1c, 0, byte(len(v))}, v...)
		ext = append(ext, 0x1d)
		b := []byte{0x00, 0x0e, 0x17, 0x00, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x1b, 0x01, 0x00, 0x63, byte(len(ext))}
		return message(append(b, ext...))
	})
	req, _ = request(t, s1.url("/nope?x"))
	if _, err := h.Fetch(context.Background(), req); schemes.KindOf(err) != schemes.KindNotFound || !strings.Contains(err.Error(), `database "nope"`) {
		t.Errorf("unknown database: %v", err)
	}
}

// TestCancelMidDocument: canceling while the body is read ends it at once.
func TestCancelMidDocument(t *testing.T) {
	doc := corpus(40000)
	f := docServer(t, doc)
	req, _ := request(t, f.url("/demo/TEXT/40000/1=x;"))
	ctx, cancel := context.WithCancel(context.Background())
	h := &Handler{}
	defer testConns.CloseIdle()
	resp, err := h.Fetch(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	buf := make([]byte, 10000)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	done := make(chan error, 1)
	go func() { _, err := io.ReadAll(resp.Body); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) && schemes.KindOf(err) != schemes.KindCanceled {
			t.Errorf("after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the body did not end after cancel")
	}
}

func TestExplain(t *testing.T) {
	for raw, want := range map[string]string{
		"wais://h/demo?apple":          `connect h:210|Search db=demo seed="apple" max=40`,
		"wais://h:2210/demo":           `connect h:2210|Search db=demo seed="" max=40 (no seeds`,
		"wais://h/demo/TEXT/107/1=x;":  "connect h:210|Retrieve DocID=1=x; TEXT bytes 0-107|then ranges of 10000 bytes until byte 107",
		"wais://h/demo/TEXT,HTML/1=x;": "connect h:210|Retrieve DocID=1=x; TEXT bytes 0-10000|then ranges of 10000 bytes until a short one",
	} {
		req, _ := request(t, raw)
		lines, err := (&Handler{}).Explain(req)
		if got := strings.Join(lines, "|"); err != nil || !strings.HasPrefix(got, strings.TrimSuffix(want, " (no seeds")) {
			t.Errorf("%s: %q %v, want %q", raw, got, err, want)
		}
	}
}

// TestConnectionReused: a second search and a document of the same server
// go on the first connection; an idle connection the server has closed
// is replaced without an error.
func TestConnectionReused(t *testing.T) {
	doc := corpus(300)
	f := docServer(t, doc)
	h := &Handler{}
	defer testConns.CloseIdle()
	for i := 0; i < 3; i++ {
		req, _ := request(t, f.url("/demo/TEXT/300/1=x;"))
		resp, err := h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(resp.Body); err != nil || !bytes.Equal(b, doc) {
			t.Fatalf("fetch %d: %d bytes, %v", i, len(b), err)
		}
		resp.Close()
	}
	if f.connCount() != 1 {
		t.Errorf("3 documents on %d connections", f.connCount())
	}
	// The server closes after each reply: the idle connection is dead.
	g := docServer(t, doc)
	g.hangUp = true
	for i := 0; i < 2; i++ {
		req, tr := request(t, g.url("/demo/TEXT/300/1=x;"))
		resp, err := h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("fetch %d: %v\n%s", i, err, tr)
		}
		io.ReadAll(resp.Body)
		resp.Close()
		if i == 1 && g.connCount() != 2 {
			t.Errorf("%d connections, want a new one for the dead one's request; trace:\n%s", g.connCount(), tr)
		}
	}
}

// BenchmarkRetrieveSplitReplies fetches a 150 KiB document, 16 ranges,
// from a server that writes each reply's header and APDU apart with
// Nagle's algorithm on, as freeWAIS-sf does: without TCP_QUICKACK
// (session.quick) every range waits for the client's delayed ACK, ~40 ms
// on Linux (issue 23). A figure, not a test: run with -bench.
func BenchmarkRetrieveSplitReplies(b *testing.B) {
	doc := corpus(150 << 10)
	f := docServer(b, doc)
	f.split.Store(true)
	raw := f.url("/demo/TEXT/" + strconv.Itoa(len(doc)) + "/1=x;2=db;3=doc;")
	for b.Loop() {
		got, _, _, err := get(b, raw)
		if err != nil || len(got) != len(doc) {
			b.Fatalf("%d bytes, %v", len(got), err)
		}
	}
}
