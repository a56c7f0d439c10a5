package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/transport"
)

// reverseServer serves /0 ... /n-1 so that they finish in reverse order:
// /k answers only once /k+1 has answered (or after a second, so that a
// client that asks one at a time is slow, not stuck). Bodies are k's
// digit repeated size(k) times; finished records the order answers ended.
func reverseServer(t *testing.T, n int, size func(k int) int) (srv *httptest.Server, finished func() []int) {
	t.Helper()
	answered := make([]chan struct{}, n+1)
	for i := range answered {
		answered[i] = make(chan struct{})
	}
	close(answered[n])
	var mu sync.Mutex
	var order []int
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		if err != nil || k < 0 || k >= n {
			http.NotFound(w, r)
			return
		}
		select {
		case <-answered[k+1]:
		case <-time.After(time.Second):
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat(strconv.Itoa(k), size(k))))
		mu.Lock()
		order = append(order, k)
		mu.Unlock()
		close(answered[k])
	}))
	t.Cleanup(srv.Close)
	return srv, func() []int {
		mu.Lock()
		defer mu.Unlock()
		return append([]int(nil), order...)
	}
}

// TestParallelOutputsInInputOrder: -Z with transfers that finish in
// reverse order writes stdout bodies (small ones held in memory, large
// ones past spoolMemory on disk), their --json reports and -w lines in
// the URLs' order, each body whole and before its report.
func TestParallelOutputsInInputOrder(t *testing.T) {
	const n = 6
	size := func(k int) int {
		if k%2 == 1 {
			return spoolMemory + 1000*k // past the memory: held in a file
		}
		return 10 + k
	}
	srv, finished := reverseServer(t, n, size)
	args := []string{"-Z", "--parallel-max", strconv.Itoa(n), "--json"}
	for k := range n {
		args = append(args, fmt.Sprintf("%s/%d", srv.URL, k))
	}
	start := time.Now()
	stdout, stderr, code := urlget(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if took := time.Since(start); took > 900*time.Millisecond {
		t.Errorf("took %v: the transfers did not run at once", took)
	}
	if got := finished(); fmt.Sprint(got) != "[5 4 3 2 1 0]" {
		t.Fatalf("the server answered in the order %v, not in reverse", got)
	}
	rest := stdout
	for k := range n {
		body := strings.Repeat(strconv.Itoa(k), size(k))
		if !strings.HasPrefix(rest, body+"\n{") {
			t.Fatalf("URL %d: stdout does not continue with its body and report: %.80q", k, rest)
		}
		line, after, _ := strings.Cut(rest[len(body)+1:], "\n")
		var rep report
		if err := json.Unmarshal([]byte(line), &rep); err != nil {
			t.Fatalf("URL %d: %v: %q", k, err, line)
		}
		if want := fmt.Sprintf("%s/%d", srv.URL, k); rep.Input != want || rep.Bytes != int64(len(body)) || rep.Error != nil {
			t.Fatalf("URL %d: report %+v", k, rep)
		}
		rest = after
	}
	if rest != "" {
		t.Fatalf("left over: %q", rest)
	}

	// Files and -w: the lines in the URLs' order, the files whole.
	dir := t.TempDir()
	srv, _ = reverseServer(t, n, size)
	args = []string{"-Z", "--parallel-max", strconv.Itoa(n), "--output-dir", dir, "-w", "%{urlnum} %{url} %{size_download}\n"}
	for k := range n {
		args = append(args, "-o", strconv.Itoa(k), fmt.Sprintf("%s/%d", srv.URL, k))
	}
	stdout, stderr, code = urlget(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var want strings.Builder
	for k := range n {
		fmt.Fprintf(&want, "%d %s/%d %d\n", k, srv.URL, k, size(k))
		if b, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(k))); err != nil || string(b) != strings.Repeat(strconv.Itoa(k), size(k)) {
			t.Errorf("file %d: %d bytes, %v", k, len(b), err)
		}
	}
	if stdout != want.String() {
		t.Fatalf("-w lines:\n%s\nwant:\n%s", stdout, want.String())
	}
}

// countingServer answers every path, counting the requests under way at
// once (the most of them) and the connections opened. With gather > 0,
// the first requests wait until gather of them are under way at once, so
// that a test of a bound sees it reached however the goroutines are
// scheduled (not after a sleep long enough, one hopes, for them to meet);
// then every request passes at once.
func countingServer(t *testing.T, gather int64) (srv *httptest.Server, most, conns *atomic.Int64) {
	t.Helper()
	var now atomic.Int64
	most = new(atomic.Int64)
	met := newMeeting(gather)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cur := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); cur > m && !most.CompareAndSwap(m, cur); m = most.Load() {
		}
		met.wait(cur)
		w.Write([]byte(r.URL.Path))
	}))
	return srv, most, startCounting(t, srv)
}

// startCounting starts srv, counting the connections it accepts.
func startCounting(t *testing.T, srv *httptest.Server) (conns *atomic.Int64) {
	t.Helper()
	conns = new(atomic.Int64)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return conns
}

// meeting holds the first requests of a server until n of them are under
// way at once, then lets every request through; bounded by await.Timeout,
// so that a client that never has n under way is seen with fewer, late.
type meeting struct {
	n    int64
	met  chan struct{}
	once sync.Once
}

func newMeeting(n int64) *meeting {
	m := &meeting{n: n, met: make(chan struct{})}
	if n <= 0 {
		m.once.Do(func() { close(m.met) })
	}
	return m
}

// wait is called by a request with cur requests under way, itself
// included.
func (m *meeting) wait(cur int64) {
	if cur >= m.n {
		m.once.Do(func() { close(m.met) })
	}
	select {
	case <-m.met:
	case <-time.After(await.Timeout):
	}
}

// TestParallelBoundedAtN: 30 URLs with --parallel-max 3 keep exactly 3
// requests under way at the server at the most, over 3 connections that
// serve every URL (keep-alive through the Client's one pool).
func TestParallelBoundedAtN(t *testing.T) {
	srv, most, conns := countingServer(t, 3)
	dir := t.TempDir()
	args := []string{"-Z", "--parallel-max", "3", "--output-dir", dir}
	for k := range 30 {
		args = append(args, "-o", strconv.Itoa(k), fmt.Sprintf("%s/f%d", srv.URL, k))
	}
	if _, stderr, code := urlget(t, "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if m := most.Load(); m != 3 {
		t.Errorf("%d requests at once at the most, want 3", m)
	}
	if c := conns.Load(); c > 3 {
		t.Errorf("%d connections for 30 URLs, 3 at once: want at most 3", c)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 30 {
		t.Errorf("%d files, want 30", len(entries))
	}
}

// TestParallelKeepsEveryConnection: -Z with a --parallel-max above the
// default idle connections per host (16) keeps every HTTP keep-alive
// connection the transfers give back, as it keeps FTP logins. n URLs of
// server a, held until all n are under way, are redirected to server b,
// which holds them until all n are there: by then every connection to a
// is idle at once. n more URLs of a, held the same way, then need n
// connections at once: every one kept, none made again.
func TestParallelKeepsEveryConnection(t *testing.T) {
	n := transport.DefaultMaxIdlePerKey + 8
	b := newMeeting(int64(n))
	var atB atomic.Int64
	srvB := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.wait(atB.Add(1))
		w.Write([]byte(r.URL.Path))
	}))
	t.Cleanup(srvB.Close)
	rounds := map[string]*meeting{"first": newMeeting(int64(n)), "second": newMeeting(int64(n))}
	in := map[string]*atomic.Int64{"first": new(atomic.Int64), "second": new(atomic.Int64)}
	srvA := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		round, k, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		rounds[round].wait(in[round].Add(1))
		if round == "first" {
			// No body: net/http keeps the connection as it reads the head.
			w.Header().Set("Location", srvB.URL+"/"+k)
			w.WriteHeader(http.StatusFound)
			return
		}
		w.Write([]byte(r.URL.Path))
	}))
	conns := startCounting(t, srvA)
	dir := t.TempDir()
	args := []string{"-Z", "--parallel-max", strconv.Itoa(n), "-L", "--output-dir", dir}
	// A URL of the second round starts only once one of the first has
	// ended, after b let them all go.
	for _, round := range []string{"first", "second"} {
		for k := range n {
			args = append(args, "-o", round+strconv.Itoa(k), fmt.Sprintf("%s/%s/%d", srvA.URL, round, k))
		}
	}
	if _, stderr, code := urlget(t, "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if c := conns.Load(); c != int64(n) {
		t.Errorf("%d connections to a for two rounds of %d URLs at once: want %d, every one kept", c, n, n)
	}
}

// TestParallelFailureAmongSuccesses: a URL that fails does not stop the
// others; its message names it; the --json reports stay in order, the
// failure's with its error; the exit status is the last failure's in the
// URLs' order (5, the refused connection, which finishes first — curl's
// would be the 404's, which finishes last). -f makes the 404 a failure.
func TestParallelFailureAmongSuccesses(t *testing.T) {
	served := make(chan struct{}, 3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow-missing" {
			// The 404 once the three others are answered (not after a
			// sleep long enough, one hopes, for them).
			for range 3 {
				select {
				case <-served:
				case <-r.Context().Done():
					return
				}
			}
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("ok " + r.URL.Path))
		served <- struct{}{}
	}))
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/refused"
	ln.Close()
	dir := t.TempDir()
	urls := []string{srv.URL + "/a", srv.URL + "/slow-missing", srv.URL + "/b", refused, srv.URL + "/c"}
	args := []string{"-Z", "-f", "--json", "--output-dir", dir}
	for k, u := range urls {
		args = append(args, "-o", strconv.Itoa(k), u)
	}
	stdout, stderr, code := urlget(t, "", args...)
	if code != 5 {
		t.Fatalf("exit %d, want 5 (the last failure in the URLs' order): %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != len(urls) {
		t.Fatalf("%d reports: %q", len(lines), stdout)
	}
	for k, line := range lines {
		var rep report
		if err := json.Unmarshal([]byte(line), &rep); err != nil {
			t.Fatal(err)
		}
		failed := k == 1 || k == 3
		if rep.Input != urls[k] || (rep.Error != nil) != failed {
			t.Errorf("report %d: %+v (error %+v)", k, rep, rep.Error)
		}
		if b, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(k))); !failed && (err != nil || !strings.HasPrefix(string(b), "ok /")) {
			t.Errorf("file %d: %q, %v", k, b, err)
		}
	}
	// Each failure named by its URL, in the URLs' order.
	i404, iRefused := strings.Index(stderr, srv.URL+"/slow-missing"), strings.Index(stderr, refused)
	if i404 < 0 || iRefused < i404 || strings.Count(stderr, "\n") != 2 {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

// TestFailEarly: with -Z, the first failure aborts the transfers under way
// (a hanging one ends at once) and starts no more; the status is the
// failure's (-f: a 404, curl's 22). Without -Z, no URL after the failure
// is retrieved.
func TestFailEarly(t *testing.T) {
	var hits atomic.Int64
	hanging := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/missing":
			// The failure once the hanging one is under way.
			select {
			case <-hanging:
			case <-r.Context().Done():
				return
			}
			http.NotFound(w, r)
		case "/gone":
			http.NotFound(w, r)
		case "/hang":
			close(hanging)
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		default:
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	start := time.Now()
	_, stderr, code := urlget(t, "", "-Z", "-f", "--parallel-max", "2", "--fail-early", "--output-dir", dir,
		"-o", "h", srv.URL+"/hang", "-o", "m", srv.URL+"/missing", "-o", "a", srv.URL+"/a", "-o", "b", srv.URL+"/b")
	if code != 22 || time.Since(start) > 5*time.Second {
		t.Fatalf("exit %d after %v: %s", code, time.Since(start), stderr)
	}
	if !strings.Contains(stderr, srv.URL+"/hang: aborted: another URL failed (--fail-early)") || !strings.Contains(stderr, srv.URL+"/missing") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if h := hits.Load(); h != 2 {
		t.Errorf("%d requests, want 2: none started after the failure", h)
	}

	hits.Store(0)
	_, stderr, code = urlget(t, "", "-f", "--fail-early", "--output-dir", dir, "-o", "m2", srv.URL+"/gone", "-o", "a2", srv.URL+"/a")
	if code != 22 || hits.Load() != 1 {
		t.Fatalf("without -Z: exit %d, %d requests: %s", code, hits.Load(), stderr)
	}
}

// TestParallelWindowBoundsWaitingOutputs: while the first URL is slow, no
// more than the reorder window of later URLs is started, so that the
// outputs waiting for their turn stay bounded whatever the number of URLs.
func TestParallelWindowBoundsWaitingOutputs(t *testing.T) {
	const n, urls = 2, 60
	limit := int64(1 + reorderWindow(n) + 1)
	var started atomic.Int64
	var whileSlow atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started.Add(1)
		if r.URL.Path == "/0" {
			// The first URL is slow: it answers once the run can start
			// nothing more while it waits — startAll blocked sending
			// the next URL into the full window (queue <- s), every
			// URL before that one started — or once more than the
			// bound have started, which a run without the window
			// shows at once.
			if !await.Poll(func() bool {
				return started.Load() > limit || await.IsParked("chan send", "urlget.(*options).startAll(")
			}) {
				t.Errorf("startAll never waited for room in the window (%d URLs started)", started.Load())
			}
			whileSlow.Store(started.Load())
		}
		w.Write([]byte("x"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	args := []string{"-Z", "--parallel-max", strconv.Itoa(n), "--output-dir", dir}
	for k := range urls {
		args = append(args, "-o", strconv.Itoa(k), fmt.Sprintf("%s/%d", srv.URL, k))
	}
	if _, stderr, code := urlget(t, "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The slow one, the window's worth queued behind it, and one more
	// under way.
	if got := whileSlow.Load(); got > limit || got < int64(reorderWindow(n)) {
		t.Fatalf("%d URLs started while the first was slow, want %d to %d", got, reorderWindow(n), limit)
	}
	if started.Load() != urls {
		t.Fatalf("%d requests, want %d", started.Load(), urls)
	}
}

// TestParallelInputFile: -Z takes -i's URLs (200 of them, and a malformed
// one, named by its line), with bodies and -w lines in the file's order,
// over at most 8 connections.
func TestParallelInputFile(t *testing.T) {
	srv, most, conns := countingServer(t, 0)
	list := filepath.Join(t.TempDir(), "urls.txt")
	var in, want strings.Builder
	for k := range 200 {
		fmt.Fprintf(&in, "%s/%d\n", srv.URL, k)
		fmt.Fprintf(&want, "/%d|%d\n", k, k)
	}
	fmt.Fprintf(&in, "# a comment\n%s/%%zz\n", srv.URL)
	want.WriteString("|200\n")
	if err := os.WriteFile(list, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := urlget(t, "", "-Z", "--parallel-max", "8", "-i", list, "-w", "|%{urlnum}\n")
	if code != 2 {
		t.Fatalf("exit %d, want 2 (the malformed URL): %s", code, stderr)
	}
	if stdout != want.String() {
		t.Errorf("stdout is not in the file's order:\n%.300s", stdout)
	}
	if !strings.Contains(stderr, "-i "+list+", line 202: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr: %s", stderr)
	}
	// Keep-alive: connections serve many URLs each. (net/http dials a new
	// one when a request comes before the last one's connection is back
	// in the pool, and keeps both: on loopback, with instant answers, a
	// few more than 8.)
	if m, c := most.Load(), conns.Load(); m > 8 || c > 200/4 {
		t.Errorf("%d requests at once, %d connections: want at most 8, and far fewer connections than URLs", m, c)
	}
}

// TestParallelStreamsInputFile: -Z reads -i's list as the run goes: each
// URL is fetched before the next line is even written (a run that read
// the whole list first would wait for its end, which never comes until
// the URLs are fetched), so a list of any length takes no memory.
func TestParallelStreamsInputFile(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(r.URL.Path + "\n"))
		got <- r.URL.Path
	}))
	defer srv.Close()
	pr, pw := io.Pipe()
	stalled := make(chan string, 1)
	go func() {
		defer pw.Close()
		for k := range 20 {
			fmt.Fprintf(pw, "%s/%d\n", srv.URL, k)
			select {
			case <-got:
			case <-time.After(5 * time.Second):
				stalled <- fmt.Sprintf("URL %d not fetched before the list went on", k)
				return
			}
		}
	}()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-Z", "--parallel-max", "4", "-i", "-", "-w", "%{urlnum}\n"}, pr, &stdout, &stderr)
	select {
	case msg := <-stalled:
		t.Fatal(msg)
	default:
	}
	var want strings.Builder
	for k := range 20 {
		fmt.Fprintf(&want, "/%d\n%d\n", k, k)
	}
	if code != 0 || stdout.String() != want.String() {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout.String(), stderr.String())
	}
	// An empty list is still no URL at all.
	if _, stderr, code := urlget(t, "# nothing\n", "-Z", "-i", "-"); code != 2 || !strings.Contains(stderr, "no URL given") {
		t.Fatalf("empty list: exit %d, %s", code, stderr)
	}
}

// TestParallelSetLine: the one progress line of -Z counts files written
// out of the total, failures, and the bytes of every transfer together.
func TestParallelSetLine(t *testing.T) {
	p := newParallelSet(5)
	a, b := p.progress(nil), p.progress(nil)
	a(1000, 5000)
	b(2048, -1)
	a(3000, 5000)
	p.finished(false)
	p.finished(true)
	line := p.view(p.m.start.Add(time.Second), 0)[0]
	if !strings.HasPrefix(line, "2/5 files (1 failed)  4.9 KiB") {
		t.Fatalf("line %q", line)
	}
	p.listed(-1) // a list still being read
	if line := p.view(p.m.start.Add(time.Second), 0)[0]; !strings.HasPrefix(line, "2 files (1 failed)") {
		t.Fatalf("line %q", line)
	}
	var none *parallelSet
	own := func(int64, int64) {}
	if none.progress(own) == nil {
		t.Fatal("without -Z a transfer keeps its own progress")
	}
}

func TestParallelMaxChecked(t *testing.T) {
	for _, n := range []string{"0", "-1", "1025"} {
		if _, stderr, code := urlget(t, "", "-Z", "--parallel-max", n, "http://127.0.0.1:1/"); code != 2 || !strings.Contains(stderr, "--parallel-max "+n) {
			t.Errorf("--parallel-max %s: exit %d, %s", n, code, stderr)
		}
	}
}

// fakeFTP is a minimal FTP server on 127.0.0.1 for the parallel tests:
// any login is accepted, every file /NAME holds "file NAME\n", and the
// first RETRs wait until gather of them are under way at once (meeting).
// It counts the logins (USER) and the most RETRs under way at once.
type fakeFTP struct {
	addr         string
	met          *meeting
	logins, most atomic.Int64
	now          atomic.Int64
}

func newFakeFTP(t *testing.T, gather int64) *fakeFTP {
	t.Helper()
	f := &fakeFTP{met: newMeeting(gather)}
	f.addr = serveConns(t, f.serve)
	return f
}

func (f *fakeFTP) serve(c net.Conn) {
	r := bufio.NewReader(c)
	reply := func(s string) { io.WriteString(c, s+"\r\n") }
	reply("220 fake")
	var data net.Listener
	defer func() {
		if data != nil {
			data.Close()
		}
	}()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd, arg, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch strings.ToUpper(cmd) {
		case "USER":
			f.logins.Add(1)
			reply("230 logged in")
		case "PWD":
			reply(`257 "/"`)
		case "CWD":
			reply("250 ok")
		case "SYST":
			reply("215 UNIX Type: L8")
		case "TYPE":
			reply("200 ok")
		case "SIZE":
			reply(fmt.Sprintf("213 %d", len("file "+arg+"\n")))
		case "EPSV":
			if data != nil {
				data.Close()
			}
			if data, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
				reply("425 no data port")
				continue
			}
			reply(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", data.Addr().(*net.TCPAddr).Port))
		case "RETR":
			cur := f.now.Add(1)
			for m := f.most.Load(); cur > m && !f.most.CompareAndSwap(m, cur); m = f.most.Load() {
			}
			reply("150 here it comes")
			d, err := data.Accept()
			if err == nil {
				f.met.wait(cur)
				io.WriteString(d, "file "+arg+"\n")
				d.Close()
			}
			f.now.Add(-1)
			reply("226 done")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not here")
		}
	}
}

// TestParallelFTPSharesLogins: 24 files of one FTP server with
// --parallel-max 4 run 4 RETRs at once, over 4 logins that the pool hands
// from one URL to the next, every file whole.
func TestParallelFTPSharesLogins(t *testing.T) {
	f := newFakeFTP(t, 4)
	dir := t.TempDir()
	args := []string{"-Z", "--parallel-max", "4", "-O", "--output-dir", dir}
	for k := range 24 {
		args = append(args, fmt.Sprintf("ftp://%s/f%d.txt", f.addr, k))
	}
	if _, stderr, code := urlget(t, "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for k := range 24 {
		name := fmt.Sprintf("f%d.txt", k)
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != "file "+name+"\n" {
			t.Fatalf("%s: %q, %v", name, b, err)
		}
	}
	if l, m := f.logins.Load(), f.most.Load(); l > 4 || m != 4 {
		t.Fatalf("%d logins and %d RETRs at once for 24 files, 4 at once: want at most 4 and 4", l, m)
	}
}
