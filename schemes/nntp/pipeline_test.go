package nntp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// pipeServer is an NNTP server for the pipelining tests: a reader takes
// the client's commands as they come while the writer answers them in
// order, and before answering an ARTICLE it waits until the client can
// send nothing more ahead of that reply (settled), then records how many
// commands are waiting: the window seen from the server. The requests
// trace into its trace, which is how it knows what the client sent and
// read. Group "g" holds articles 1 to n; missing ones get 430.
type pipeServer struct {
	t       *testing.T
	ln      net.Listener
	n       int
	missing map[int]bool
	trace   *pipeTrace

	mu          sync.Mutex
	conns       int
	cmds        []string
	received    int            // command lines read, on every connection
	written     map[string]int // status lines sent, by their text, on every connection
	outstanding map[int]int    // article → commands received and unanswered when its reply went out
}

func newPipeServer(t *testing.T, n int, missing ...int) *pipeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &pipeServer{t: t, ln: ln, n: n, missing: map[int]bool{}, trace: &pipeTrace{received: map[string]int{}},
		written: map[string]int{}, outstanding: map[int]int{}}
	for _, m := range missing {
		s.missing[m] = true
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	acceptLoop(&wg, ln, func(c net.Conn) {
		s.mu.Lock()
		s.conns++
		s.mu.Unlock()
		s.serve(c)
	})
	return s
}

func (s *pipeServer) serve(c net.Conn) {
	defer c.Close()
	lines := make(chan string, 1000)
	gone := make(chan struct{}) // the client closed the connection
	go func() {
		defer close(lines)
		defer close(gone)
		r := bufio.NewReader(c)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- strings.TrimRight(l, "\r\n")
			s.mu.Lock()
			s.received++
			s.mu.Unlock()
		}
	}()
	last := "" // the status line sent last on c
	reply := func(out string) {
		last, _, _ = strings.Cut(out, "\r\n")
		s.mu.Lock()
		s.written[last]++
		s.mu.Unlock()
		io.WriteString(c, out)
	}
	reply("200 pipe ready\r\n")
	for cmd := range lines {
		s.mu.Lock()
		s.cmds = append(s.cmds, cmd)
		s.mu.Unlock()
		word, arg, _ := strings.Cut(cmd, " ")
		var out string
		switch word {
		case "CAPABILITIES":
			out = capsINN
		case "GROUP":
			out = fmt.Sprintf("211 %d 1 %d g\r\n", s.n, s.n)
		case "ARTICLE":
			a, _ := strconv.Atoi(arg)
			// A pipelining client has the next commands on their way:
			// they are all here once it has settled (or left).
			if !await.Poll(func() bool { return isClosed(gone) || s.settled(last) }) {
				s.t.Errorf("ARTICLE %d: the client never settled: it did not wait for the reply with all it sent received", a)
			}
			s.mu.Lock()
			s.outstanding[a] = 1 + len(lines)
			s.mu.Unlock()
			if s.missing[a] || a < 1 || a > s.n {
				out = "430 No such article\r\n"
			} else {
				out = fmt.Sprintf("220 %d <a%d@x> article\r\nSubject: %d\r\n\r\nbody of %d\r\n.\r\n", a, a, a, a)
			}
		case "QUIT":
			reply("205 bye\r\n")
			return
		default:
			out = "500 unknown\r\n"
		}
		reply(out)
	}
}

// settled reports whether the client can send nothing more before it
// reads the reply to come, last being the status line sent before it:
// the client has read last (its trace has it as often as it was sent),
// after that it is blocked reading a status line, so whatever it sends
// ahead once a status line is read (sendAhead) is sent, and every
// command it traced as sent has been received. In that order: a client
// seen blocked in readReply before it read last could be waiting for
// last itself, and send more once it has it; the count of commands sent
// is taken once it is blocked, when it no longer grows.
func (s *pipeServer) settled(last string) bool {
	s.mu.Lock()
	written := s.written[last]
	s.mu.Unlock()
	if s.trace.heard(last) < written || !await.IsParked("", "nntp.(*session).readReply(") {
		return false
	}
	sent := s.trace.sentCount()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.received >= sent
}

// isClosed reports whether c is closed.
func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// pipeTrace is the Trace of a pipeServer's requests: how many command
// lines the client sent and which lines it read, on every connection.
type pipeTrace struct {
	mu       sync.Mutex
	sent     int
	received map[string]int
}

func (p *pipeTrace) Sent(string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent++
}

func (p *pipeTrace) Received(l string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.received[l]++
}

func (p *pipeTrace) Info(string)   {}
func (p *pipeTrace) Secret(string) {}

func (p *pipeTrace) sentCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sent
}

// heard is how many times the client read the line l.
func (p *pipeTrace) heard(l string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.received[l]
}

func (s *pipeServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// hint says how fetchInOrder's requests name the URLs after them.
type hint int

const (
	noHint    hint = iota
	sameLocs       // the same Locators each time
	freshLocs      // each request parses them anew
)

// fetchInOrder fetches nums of group g in order, each request saying
// which come after it as how says, and returns each body or error text.
func fetchInOrder(t *testing.T, h *Handler, pool *transport.Pool, srv *pipeServer, nums []int, how hint) []string {
	t.Helper()
	port := srv.port()
	parse := func() []schemes.Locator {
		locs := make([]schemes.Locator, len(nums))
		for i, n := range nums {
			locs[i] = locate(t, fmt.Sprintf("nntp://127.0.0.1:%d/g/%d", port, n))
		}
		return locs
	}
	locs := parse()
	var got []string
	for i, loc := range locs {
		ctx := context.Background()
		switch how {
		case sameLocs:
			ctx = schemes.WithNext(ctx, locs[i+1:])
		case freshLocs:
			ctx = schemes.WithNext(ctx, parse()[i+1:])
		}
		resp, err := h.Fetch(ctx, &schemes.Request{URL: loc, Dialer: fakeDialer{}, Conns: pool, Trace: srv.trace})
		var se *schemes.Error
		if errors.As(err, &se) {
			got = append(got, "error "+strconv.Itoa(se.Code))
			continue
		}
		if err != nil {
			t.Fatalf("article %d: %v", nums[i], err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("article %d: %v", nums[i], err)
		}
		got = append(got, string(b))
	}
	return got
}

// want is what fetchInOrder returns for nums, missing ones 430.
func wantArticles(nums []int, missing ...int) []string {
	var out []string
	for _, n := range nums {
		if containsInt(missing, n) {
			out = append(out, "error 430")
			continue
		}
		out = append(out, fmt.Sprintf("Subject: %d\n\nbody of %d\n", n, n))
	}
	return out
}

func containsInt(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// TestPipelinedArticles: articles asked for one after another, each
// request naming the ones after it, go over one connection with the
// commands sent ahead — the server has the window's commands before it
// answers (Window 4: three more after the first reply, then one for each
// reply read), never more — and a 430 in the middle is that article's
// error alone: the articles after it come on the same connection. With
// Window 1, or without the hint, each command waits for the reply before
// it.
func TestPipelinedArticles(t *testing.T) {
	for _, tt := range []struct {
		name    string
		window  int
		hint    hint
		missing []int
		// outstanding is what the server saw waiting when it answered
		// each article, 1 to 10.
		outstanding []int
		groups      int // GROUP commands: one per article sent after the reply before it
	}{
		{"window 4", 4, sameLocs, nil, []int{1, 3, 3, 3, 3, 3, 3, 3, 2, 1}, 1},
		{"window 4, 430 for 3 and 7", 4, sameLocs, []int{3, 7}, []int{1, 3, 3, 3, 3, 3, 3, 3, 2, 1}, 1},
		{"window 4, URLs parsed anew", 4, freshLocs, []int{3}, []int{1, 3, 3, 3, 3, 3, 3, 3, 2, 1}, 1},
		{"window 16", 16, sameLocs, []int{5}, []int{1, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 1},
		{"window 1", 1, sameLocs, []int{3}, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 10},
		{"no hint", 4, noHint, []int{3}, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newPipeServer(t, 10, tt.missing...)
			h := &Handler{Window: tt.window}
			pool := &transport.Pool{}
			defer pool.CloseIdle()
			nums := seq(1, 10)
			got := fetchInOrder(t, h, pool, srv, nums, tt.hint)
			if want := wantArticles(nums, tt.missing...); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("got %q\nwant %q", got, want)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if srv.conns != 1 {
				t.Errorf("%d connections, want 1", srv.conns)
			}
			for i, w := range tt.outstanding {
				if o := srv.outstanding[i+1]; o != w {
					t.Errorf("article %d answered with %d commands waiting, want %d (all: %v)", i+1, o, w, srv.outstanding)
				}
			}
			if n := strings.Count(strings.Join(srv.cmds, "\n"), "GROUP"); n != tt.groups {
				t.Errorf("%d GROUP commands, want %d: %q", n, tt.groups, srv.cmds)
			}
		})
	}
}

// TestPipelineSkipped: a caller that skips an article it said it would
// ask for gets the ones after it right, on another connection; the parked
// one is closed after parkTimeout.
func TestPipelineSkipped(t *testing.T) {
	defer func(d time.Duration) { parkTimeout = d }(parkTimeout)
	parkTimeout = 50 * time.Millisecond
	srv := newPipeServer(t, 10)
	h := &Handler{Window: 4}
	pool := &transport.Pool{}
	defer pool.CloseIdle()
	port := srv.port()
	loc := func(n int) schemes.Locator { return locate(t, fmt.Sprintf("nntp://127.0.0.1:%d/g/%d", port, n)) }
	get := func(n int, next ...int) string {
		var locs []schemes.Locator
		for _, m := range next {
			locs = append(locs, loc(m))
		}
		resp, err := h.Fetch(schemes.WithNext(context.Background(), locs),
			&schemes.Request{URL: loc(n), Dialer: fakeDialer{}, Conns: pool, Trace: srv.trace})
		if err != nil {
			t.Fatalf("article %d: %v", n, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	get(1, 2, 3, 4)
	if got := get(3, 4); got != "Subject: 3\n\nbody of 3\n" {
		t.Errorf("article 3: %q", got)
	}
	srv.mu.Lock()
	conns := srv.conns
	srv.mu.Unlock()
	if conns != 2 {
		t.Errorf("%d connections, want 2 (the first parked for article 2)", conns)
	}
	// The timer's close has no event to wait on: polled, bounded by
	// await.Timeout, far past the 50 ms parkTimeout.
	await.Until(t, "no session parked after parkTimeout", func() bool {
		return h.parking.Len() == 0
	})
}

// TestAhead: the articles that may be sent ahead are those named next on
// the same server, news: and nntp: alike, with the same security and
// credentials, up to the first that is not; a request that is not for an
// article, or with no Conns, sends none.
func TestAhead(t *testing.T) {
	const here = "nntp://127.0.0.1:1119/g/1"
	for _, tt := range []struct {
		name  string
		url   string
		next  []string
		conns bool
		want  []string
	}{
		{"numbers and ids", here, []string{"nntp://127.0.0.1:1119/g/2", "news:a@x", "nntp://127.0.0.1:1119/h/5"}, true,
			[]string{"g ARTICLE 2", " ARTICLE <a@x>", "h ARTICLE 5"}},
		{"up to another port", here, []string{"nntp://127.0.0.1:1119/g/2", "nntp://127.0.0.1:1120/g/3", "nntp://127.0.0.1:1119/g/4"}, true,
			[]string{"g ARTICLE 2"}},
		{"up to a group", here, []string{"news:g", "nntp://127.0.0.1:1119/g/4"}, true, nil},
		{"up to TLS", here, []string{"nntps://127.0.0.1:1119/g/2"}, true, nil},
		{"up to a login", here, []string{"nntp://u:p@127.0.0.1:1119/g/2"}, true, nil},
		{"same login", "nntp://u:p@127.0.0.1:1119/g/1", []string{"nntp://u:p@127.0.0.1:1119/g/2", "nntp://127.0.0.1:1119/g/3"}, true,
			[]string{"g ARTICLE 2"}},
		{"a group asks nothing ahead", "nntp://127.0.0.1:1119/g", []string{"nntp://127.0.0.1:1119/g/2"}, true, nil},
		{"no Conns", here, []string{"nntp://127.0.0.1:1119/g/2"}, false, nil},
		{"shared with other connections (-Z)", here, []string{"nntp://127.0.0.1:1119/g/2"}, true, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := &Handler{Server: "127.0.0.1:1119"}
			req := &schemes.Request{URL: locate(t, tt.url), Dialer: fakeDialer{}}
			if tt.conns {
				req.Conns = &transport.Pool{}
			}
			var next []schemes.Locator
			for _, raw := range tt.next {
				next = append(next, locate(t, raw))
			}
			p, err := h.start(req)
			if err != nil {
				t.Fatal(err)
			}
			key, _ := schemes.NewConnKey(req, "nntp", p.host, p.port, p.tls || p.starttls, p.user, p.pass)
			ctx := schemes.WithNext(context.Background(), next)
			if strings.HasPrefix(tt.name, "shared") {
				ctx = schemes.WithSharedNext(context.Background(), next)
			}
			h.ahead(ctx, req, p, key)
			var got []string
			for _, loc := range p.next {
				c, ok := h.aheadCmd(p, loc)
				if !ok {
					break
				}
				got = append(got, c.group+" "+c.line)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("ahead %q, want %q", got, tt.want)
			}
		})
	}
}
