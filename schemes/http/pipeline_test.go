package http

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
)

// pipeServer is an HTTP/1.1 server for the pipelining tests, written
// apart from the client: a reader takes the requests as they come while
// the writer answers them in order. Before it answers a request that is
// not the first on its connection nor the list's last, it waits (up to
// aheadWait) for the request after it, and records whether it came
// before the answer went out: that request was sent ahead. Each answer's
// body is "body of PATH"; /big's is 1 MiB; /hugehead's head is twice a
// pipeline's buffer; a path starting /missing is a 404; a path in
// closeAfter is answered with "Connection: close" and the connection closed after it,
// whatever was sent after it. A naive server reads each request with one
// read and answers it, losing whatever else that read brought.
type pipeServer struct {
	t          *testing.T
	ln         net.Listener
	last       string
	closeAfter map[string]bool
	naive      bool
	noWait     bool // answer at once, for a client that sends nothing ahead

	mu    sync.Mutex
	conns int
	ended int             // connections whose requests were all read (the client closed them)
	ahead map[string]bool // path → the request after it came before its answer
	heads map[string]string
	auth  map[string]string // path → its request's Authorization
}

const aheadWait = 5 * time.Second

// newPipeServer starts a server whose last request is last, set up by
// setup before it accepts.
func newPipeServer(t *testing.T, last string, setup ...func(*pipeServer)) *pipeServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &pipeServer{t: t, ln: ln, last: last, closeAfter: map[string]bool{}, ahead: map[string]bool{}, heads: map[string]string{},
		auth: map[string]string{}}
	for _, f := range setup {
		f(s)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			s.mu.Unlock()
			if s.naive {
				go s.serveNaive(c)
			} else {
				go s.serve(c)
			}
		}
	}()
	return s
}

func (s *pipeServer) url(path string) string { return "http://" + s.ln.Addr().String() + path }

func (s *pipeServer) answer(w io.Writer, path string) (closing bool) {
	body, status := "body of "+path, "200 OK"
	if path == "/big" {
		body = strings.Repeat("x", 1<<20)
	}
	if strings.HasPrefix(path, "/missing") {
		status = "404 Not Found"
	}
	head := fmt.Sprintf("HTTP/1.1 %s\r\nContent-Length: %d\r\nX-Path: %s\r\n", status, len(body), path)
	if path == "/hugehead" {
		head += "X-Pad: " + strings.Repeat("x", 2*pipeBuffer) + "\r\n"
	}
	if s.closeAfter[path] {
		head += "Connection: close\r\n"
	}
	head += "\r\n"
	s.mu.Lock()
	s.heads[path] = head
	s.mu.Unlock()
	io.WriteString(w, head+body)
	return s.closeAfter[path]
}

func (s *pipeServer) serve(c net.Conn) {
	defer c.Close()
	reqs := make(chan string, 64)
	go func() {
		defer close(reqs)
		defer func() { s.mu.Lock(); s.ended++; s.mu.Unlock() }()
		br := bufio.NewReader(c)
		for {
			r, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			s.mu.Lock()
			s.auth[r.URL.Path] = r.Header.Get("Authorization")
			s.mu.Unlock()
			reqs <- r.URL.Path
		}
	}()
	var queue []string
	for n := 0; ; n++ {
		if len(queue) == 0 {
			p, ok := <-reqs
			if !ok {
				return
			}
			queue = append(queue, p)
		}
		p := queue[0]
		queue = queue[1:]
		if n > 0 && p != s.last && len(queue) == 0 && !s.noWait {
			select {
			case q, ok := <-reqs:
				if ok {
					queue = append(queue, q)
				}
			case <-time.After(aheadWait):
			}
			s.mu.Lock()
			s.ahead[p] = len(queue) > 0
			s.mu.Unlock()
		} else if n > 0 && len(queue) > 0 {
			s.mu.Lock()
			s.ahead[p] = true
			s.mu.Unlock()
		}
		if s.answer(c, p) {
			return
		}
	}
}

func (s *pipeServer) serveNaive(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := c.Read(buf)
		if err != nil {
			return
		}
		f := strings.Fields(string(buf[:n]))
		if len(f) < 2 {
			return
		}
		s.answer(c, f[1])
	}
}

func (s *pipeServer) sentAhead(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ahead[path]
}

// authOf is the Authorization of path's request; sent says one came.
func (s *pipeServer) authOf(path string) (auth string, sent bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	auth, sent = s.auth[path]
	return auth, sent
}

func (s *pipeServer) connCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// listReqs are the requests of a run fetching paths of s one after
// another: one Dialer and one Trace, as a fetch run gives them.
func listReqs(t *testing.T, s *pipeServer, paths ...string) ([]*schemes.Request, *recTrace) {
	t.Helper()
	d, tr := &testDialer{}, &recTrace{}
	var reqs []*schemes.Request
	for _, p := range paths {
		loc, err := parse(s.url(p))
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, &schemes.Request{URL: loc, Dialer: d, Trace: tr})
	}
	return reqs, tr
}

// fetchAll fetches reqs in order, each naming the ones after it
// (schemes.WithNext), skipping those skip names, and returns each body
// read to its end ("" for one skipped) and each Response.Head.
func fetchAll(t *testing.T, h *Handler, reqs []*schemes.Request, skip map[int]bool) (bodies, heads []string) {
	t.Helper()
	for i, req := range reqs {
		if skip[i] {
			bodies, heads = append(bodies, ""), append(heads, "")
			continue
		}
		var next []schemes.Locator
		for _, r := range reqs[i+1:] {
			next = append(next, r.URL)
		}
		resp, err := h.Fetch(schemes.WithNext(context.Background(), next), req)
		if err != nil {
			t.Fatalf("%s: %v", req.URL, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: body: %v", req.URL, err)
		}
		bodies, heads = append(bodies, string(b)), append(heads, resp.Head)
	}
	return bodies, heads
}

func wantBodies(t *testing.T, got []string, paths ...string) {
	t.Helper()
	for i, p := range paths {
		if p == "" {
			continue
		}
		if want := "body of " + p; i >= len(got) || got[i] != want {
			t.Errorf("body %d = %.40q, want %q", i, got[i], want)
		}
	}
}

// TestPipelineSendsAhead: four GETs named one after another go on one
// connection, the second, third and fourth written before the answers
// to the ones before them (the server saw each waiting); each Fetch gets
// its own body and the head as the server wrote it; -v shows the
// requests as they went.
func TestPipelineSendsAhead(t *testing.T) {
	s := newPipeServer(t, "/d")
	h := &Handler{}
	defer h.CloseIdleConnections()
	reqs, tr := listReqs(t, s, "/a", "/b", "/c", "/d")
	bodies, heads := fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/b", "/c", "/d")
	for _, p := range []string{"/b", "/c"} {
		if !s.sentAhead(p) {
			t.Errorf("the request after %s came only after its answer", p)
		}
	}
	if n := s.connCount(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range []string{"/a", "/b", "/c", "/d"} {
		if want := s.heads[p]; heads[i] != want {
			t.Errorf("head of %s = %q, want %q", p, heads[i], want)
		}
	}
	if !tr.has("* sending ahead (pipelined) on the connection to "+s.ln.Addr().String()) || !tr.has("> GET /c HTTP/1.1") ||
		!tr.has("* reading the pipelined response on the connection to "+s.ln.Addr().String()) {
		t.Errorf("trace:\n%s", tr)
	}
}

// TestPipelineWindowOne: a Handler with a window of 1 (--no-pipeline)
// sends nothing ahead.
func TestPipelineWindowOne(t *testing.T) {
	s := newPipeServer(t, "/c", func(s *pipeServer) { s.noWait = true })
	h := &Handler{Window: 1}
	defer h.CloseIdleConnections()
	reqs, tr := listReqs(t, s, "/a", "/b", "/c")
	bodies, _ := fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/b", "/c")
	if strings.Contains(tr.String(), "pipelined") {
		t.Errorf("trace:\n%s", tr)
	}
}

// TestPipelineServerCloses: an answer with "Connection: close" ends the
// pipeline; the requests the server dropped after it are sent again on a
// new connection, which pipelines in its turn.
func TestPipelineServerCloses(t *testing.T) {
	s := newPipeServer(t, "/e", func(s *pipeServer) { s.closeAfter["/b"] = true })
	h := &Handler{}
	defer h.CloseIdleConnections()
	reqs, _ := listReqs(t, s, "/a", "/b", "/c", "/d", "/e")
	bodies, _ := fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/b", "/c", "/d", "/e")
	if n := s.connCount(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
	if !s.sentAhead("/d") {
		t.Error("the second connection did not pipeline")
	}
}

// TestPipelineDropped: a server that loses the requests that came with
// another (one read a request) leaves the one sent ahead unanswered: after
// aheadStall it is sent again on its own, and nothing more goes ahead to
// that server.
func TestPipelineDropped(t *testing.T) {
	defer func(d time.Duration) { aheadStall = d }(aheadStall)
	aheadStall = 200 * time.Millisecond
	s := newPipeServer(t, "/e", func(s *pipeServer) { s.naive = true })
	h := &Handler{}
	defer h.CloseIdleConnections()
	reqs, tr := listReqs(t, s, "/a", "/b", "/c", "/d", "/e")
	bodies, _ := fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/b", "/c", "/d", "/e")
	out := tr.String()
	i := strings.Index(out, "no response to the request sent ahead; sending it again on its own")
	if i < 0 || strings.Contains(out[i:], "sending ahead") {
		t.Errorf("trace:\n%s", out)
	}
}

// TestPipelineSkipped: a URL the caller named and then does not fetch
// costs only its answer: the next one comes right, on another connection.
func TestPipelineSkipped(t *testing.T) {
	s := newPipeServer(t, "/d")
	h := &Handler{}
	defer h.CloseIdleConnections()
	reqs, _ := listReqs(t, s, "/a", "/b", "/c", "/d")
	bodies, _ := fetchAll(t, h, reqs, map[int]bool{1: true})
	wantBodies(t, bodies, "/a", "", "/c", "/d")
}

// TestPipelineUnreadBody: a large body closed unread is not read to its
// end for the answers after it: the connection is closed and the next
// request goes on a new one.
func TestPipelineUnreadBody(t *testing.T) {
	s := newPipeServer(t, "/c")
	h := &Handler{}
	defer h.CloseIdleConnections()
	paths := []string{"/a", "/big", "/c"}
	reqs, _ := listReqs(t, s, paths...)
	ctx := context.Background()
	for i, req := range reqs {
		var next []schemes.Locator
		for _, r := range reqs[i+1:] {
			next = append(next, r.URL)
		}
		resp, err := h.Fetch(schemes.WithNext(ctx, next), req)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 10)
		n, _ := io.ReadFull(resp.Body, b)
		resp.Body.Close()
		if want := "body of " + paths[i]; i != 1 && string(b[:n]) != want[:min(10, len(want))] {
			t.Errorf("%s: %q", req.URL, b[:n])
		}
	}
	if n := s.connCount(); n != 2 {
		t.Errorf("%d connections, want 2 (the first closed with /big unread)", n)
	}
}

// TestPipelineRequestChanged: a URL whose request turns out other than
// the one sent ahead (a condition set in its turn) is asked for again, as
// it is, and the connection parked for it is closed at once rather than
// left to its timeout: nothing on it would be read.
func TestPipelineRequestChanged(t *testing.T) {
	s := newPipeServer(t, "/d")
	h := &Handler{}
	defer h.CloseIdleConnections()
	reqs, _ := listReqs(t, s, "/a", "/b", "/c", "/d")
	reqs[1].IfModifiedSince = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	bodies, _ := fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/b", "/c", "/d")
	if n := h.pipes.parked.Len(); n != 0 {
		t.Errorf("%d connections still parked", n)
	}
}

// TestPipelineCredentials: a login the caller gives every URL of the
// server (-u, netrc: Request.Credentials) goes with the requests sent
// ahead as with the first; a login written in a URL goes with that URL
// only, and nothing is sent ahead of it with it.
func TestPipelineCredentials(t *testing.T) {
	s := newPipeServer(t, "/c")
	h := &Handler{}
	defer h.CloseIdleConnections()
	reqs, tr := listReqs(t, s, "/a", "/b", "/c")
	for _, r := range reqs {
		r.Credentials = func(scheme, host string, port int) (string, string, bool) { return "u", "pw", true }
	}
	bodies, _ := fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/b", "/c")
	for _, p := range []string{"/a", "/b", "/c"} {
		if a, _ := s.authOf(p); a != "Basic dTpwdw==" {
			t.Errorf("%s: Authorization %q", p, a)
		}
	}
	if !s.sentAhead("/b") || !strings.Contains(tr.String(), "pipelined") {
		t.Errorf("not pipelined:\n%s", tr)
	}

	s = newPipeServer(t, "/c", func(s *pipeServer) { s.noWait = true })
	reqs, tr = listReqs(t, s, "/a", "/b", "/c")
	loc, err := parse("http://u:pw@" + s.ln.Addr().String() + "/a")
	if err != nil {
		t.Fatal(err)
	}
	reqs[0].URL = loc
	bodies, _ = fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/b", "/c")
	for p, want := range map[string]string{"/a": "Basic dTpwdw==", "/b": "", "/c": ""} {
		if a, _ := s.authOf(p); a != want {
			t.Errorf("%s: Authorization %q, want %q", p, a, want)
		}
	}
	if i := strings.Index(tr.String(), "sending ahead"); i >= 0 && strings.Index(tr.String(), "> GET /b") > i {
		t.Errorf("/b sent ahead of /a's answer:\n%s", tr)
	}
}

// TestPipelineHugeHead: a response head longer than a pipeline's buffer
// is not read into memory past it: the request goes again through
// net/http, which reads heads up to 1 MiB, and the next URLs come right.
func TestPipelineHugeHead(t *testing.T) {
	s := newPipeServer(t, "/c")
	h := &Handler{}
	defer h.CloseIdleConnections()
	reqs, _ := listReqs(t, s, "/a", "/hugehead", "/c")
	bodies, heads := fetchAll(t, h, reqs, nil)
	wantBodies(t, bodies, "/a", "/hugehead", "/c")
	if len(heads[1]) < 2*pipeBuffer {
		t.Errorf("head of /hugehead: %d bytes", len(heads[1]))
	}
}

// TestPipelineNothingAheadOfFailure: a failure's answer (a 404) sends
// nothing ahead: a caller that stops there (--fail-early) has the server
// see no request it did not make.
func TestPipelineNothingAheadOfFailure(t *testing.T) {
	s := newPipeServer(t, "/b", func(s *pipeServer) { s.noWait = true })
	h := &Handler{}
	reqs, _ := listReqs(t, s, "/missing", "/b")
	_, err := h.Fetch(schemes.WithNext(context.Background(), []schemes.Locator{reqs[1].URL}), reqs[0])
	if schemes.KindOf(err) != schemes.KindNotFound {
		t.Fatalf("/missing: %v", err)
	}
	h.CloseIdleConnections()
	await.Until(t, "the server reading all the client sent", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.ended == s.conns
	})
	if _, sent := s.authOf("/b"); sent {
		t.Error("/b was sent ahead of a 404")
	}
}
