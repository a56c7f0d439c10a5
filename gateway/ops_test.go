package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
)

// syncBuffer is a log's destination that handlers of several requests
// may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestHealthAndReady: /healthz and /readyz answer whatever the Host
// header names (a probe's pod address), /readyz fails once the gateway
// drains, and neither is taken for a gateway address.
func TestHealthAndReady(t *testing.T) {
	s, addr := served(t, Options{})
	ask := func(method, path, host string) (int, string) {
		req := newRequest(t, method, "http://"+addr+path)
		req.Host = host
		resp, body := get(t, req)
		return resp.StatusCode, body
	}
	for _, host := range []string{addr, "10.1.2.3:8070"} {
		if st, body := ask("GET", HealthPath, host); st != 200 || body != "ok\n" {
			t.Errorf("Host %s: %s: %d %q", host, HealthPath, st, body)
		}
		if st, body := ask("GET", ReadyPath, host); st != 200 || body != "ready\n" {
			t.Errorf("Host %s: %s: %d %q", host, ReadyPath, st, body)
		}
	}
	if st, _ := ask("HEAD", HealthPath, addr); st != 200 {
		t.Errorf("HEAD %s: %d", HealthPath, st)
	}
	// Another method is no endpoint: the gateway's own answer to it.
	if st, _ := ask("POST", HealthPath, "10.1.2.3:8070"); st != http.StatusMisdirectedRequest {
		t.Errorf("POST %s under another name: %d, want the Host check's 421", HealthPath, st)
	}
	// A path below them is an address, of a scheme nobody knows.
	if st, _ := ask("GET", HealthPath+"/x", addr); st != http.StatusBadRequest {
		t.Errorf("%s/x: %d, want 400 (no such scheme)", HealthPath, st)
	}
	s.Drain()
	if st, body := ask("GET", ReadyPath, addr); st != http.StatusServiceUnavailable || !strings.Contains(body, "shutting down") {
		t.Errorf("draining: %s: %d %q", ReadyPath, st, body)
	}
	if st, _ := ask("GET", HealthPath, addr); st != 200 {
		t.Errorf("draining: %s: %d, want 200 (the process still serves)", HealthPath, st)
	}
}

// TestReadyWhenSlotsTaken: /readyz fails while every upstream slot is in
// use, and passes again once one is free.
func TestReadyWhenSlotsTaken(t *testing.T) {
	slow, _, arrived, hold := heldGopher(t, 1)
	s, addr := served(t, Options{MaxUpstream: 1})
	done := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/gopher/" + slow + "/1/")
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("no request reached the slow server")
	}
	resp, body := get(t, newRequest(t, "GET", "http://"+addr+ReadyPath))
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "all 1 upstream slots are in use") {
		t.Errorf("every slot taken: %d %q", resp.StatusCode, body)
	}
	close(hold)
	if st := <-done; st != 200 {
		t.Errorf("the slow request: %d", st)
	}
	await.Until(t, "its slot given back", func() bool { return s.slots.inUse() == 0 })
	if resp, body := get(t, newRequest(t, "GET", "http://"+addr+ReadyPath)); resp.StatusCode != 200 {
		t.Errorf("a slot free again: %d %q", resp.StatusCode, body)
	}
}

// heldGopher is a gopher server that reads a request, tells arrived (of
// buffer n), and answers a menu only once hold is closed.
func heldGopher(t *testing.T, n int) (addr string, conns *atomic.Int32, arrived chan struct{}, hold chan struct{}) {
	hold = make(chan struct{})
	arrived = make(chan struct{}, n)
	addr, conns = fake(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		arrived <- struct{}{}
		<-hold
		io.WriteString(c, "iSlow at last\t\terror.host\t1\r\n.\r\n")
	})
	return addr, conns, arrived, hold
}

// TestMetrics: /metrics counts requests by scheme and status class, the
// bytes sent, the upstream's times, and shows the slots.
func TestMetrics(t *testing.T) {
	menu, _ := gopherFake(t, "iHello\t\terror.host\t1\r\n")
	_, addr := served(t, Options{MaxUpstream: 6})
	for range 2 {
		if resp, _ := get(t, newRequest(t, "GET", "http://"+addr+"/gopher/"+menu+"/1/")); resp.StatusCode != 200 {
			t.Fatalf("menu: %d", resp.StatusCode)
		}
	}
	resp, page := get(t, newRequest(t, "GET", "http://"+addr+"/gopher/"+menu+"/1/%0D%0Ax"))
	if resp.StatusCode/100 != 4 {
		t.Fatalf("a selector with CR LF: %d", resp.StatusCode)
	}
	get(t, newRequest(t, "GET", "http://"+addr+"/"))
	// A proxy request spelling the scheme in capitals counts as gopher.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET GoPhEr://%s/1/ HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", menu, menu)
	if pr, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || pr.StatusCode != 200 {
		t.Fatalf("proxy request: %v %v", pr, err)
	} else {
		io.Copy(io.Discard, pr.Body)
	}
	resp, text := get(t, newRequest(t, "GET", "http://"+addr+MetricsPath))
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("%s: %d %s", MetricsPath, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	samples := parseMetrics(t, text)
	for _, c := range []struct {
		name string
		want float64
	}{
		{`urlget_gateway_requests_total{scheme="gopher",status="2xx"}`, 3},
		{`urlget_gateway_requests_total{scheme="gopher",status="4xx"}`, 1},
		{`urlget_gateway_requests_total{scheme="",status="2xx"}`, 1},
		{`urlget_gateway_upstream_slots`, 6},
		{`urlget_gateway_upstream_slots_per_host`, 1},
		{`urlget_gateway_upstream_slots_in_use`, 0},
		{`urlget_gateway_requests_in_flight`, 0}, // a scrape is not counted
	} {
		if got, ok := samples[c.name]; !ok || got != c.want {
			t.Errorf("%s = %v (found %v), want %v", c.name, got, ok, c.want)
		}
	}
	// The menu page's bytes, twice, and the error page's.
	if got := samples[`urlget_gateway_response_bytes_total{scheme="gopher"}`]; got < float64(2*len("Hello")+len(page)) {
		t.Errorf("bytes sent for gopher: %v", got)
	}
	if got := samples[`urlget_gateway_upstream_first_byte_seconds_count{scheme="gopher"}`]; got != 4 {
		t.Errorf("first-byte observations: %v, want 4 (each request that reached its scheme, the refused selector too)", got)
	}
	if got := samples[`urlget_gateway_upstream_duration_seconds_count{scheme="gopher"}`]; got != 4 {
		t.Errorf("duration observations: %v, want 4", got)
	}
	for name := range samples {
		if strings.Contains(name, "127.0.0.1") {
			t.Errorf("a sample names a host: %s", name)
		}
	}
}

// parseMetrics reads the Prometheus text format: each sample line's name
// with its labels, and its value.
func parseMetrics(t *testing.T, text string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		var v float64
		if _, err := fmt.Sscan(line[i+1:], &v); err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestAccessLog: one line a request, JSON here, with its method, status,
// bytes, scheme and host, and no password, search words or form answer.
func TestAccessLog(t *testing.T) {
	menu, _ := gopherFake(t, "iHello\t\terror.host\t1\r\n")
	var log syncBuffer
	_, addr := served(t, Options{Log: slog.New(slog.NewJSONHandler(&log, nil))})
	resp, _ := get(t, newRequest(t, "GET", "http://"+addr+"/gopher/"+menu+"/1/"))
	if resp.StatusCode != 200 {
		t.Fatalf("menu: %d", resp.StatusCode)
	}
	// A password in the address (the gateway redirects to the address
	// without it), and in /go's URL.
	get(t, newRequest(t, "GET", "http://"+addr+"/ftp/alice:s3cret@"+menu+"/pub/"))
	get(t, newRequest(t, "GET", "http://"+addr+"/go?url=ftp://bob:s3cret@"+menu+"/"))
	// A search's words, and a form's answers posted.
	get(t, newRequest(t, "GET", "http://"+addr+"/search?url=gopher://"+menu+"/7/s&q=hidden+words"))
	post, err := http.NewRequest("POST", "http://"+addr+"/gopher/"+menu+"/1/form", strings.NewReader("a1=s3cret&token=x"))
	if err != nil {
		t.Fatal(err)
	}
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	get(t, post)
	get(t, newRequest(t, "GET", "http://"+addr+HealthPath))
	await.Until(t, "five lines logged", func() bool { return strings.Count(log.String(), "\n") >= 5 })
	text := log.String()
	for _, secret := range []string{"s3cret", "hidden", "words"} {
		if strings.Contains(text, secret) {
			t.Errorf("the log holds %q:\n%s", secret, text)
		}
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != 5 {
		t.Errorf("%d lines, want 5 (none for %s):\n%s", len(lines), HealthPath, text)
	}
	var first struct {
		Msg, Method, Path, Scheme, Host string
		Status                          int
		Bytes                           int64
		DurationMS                      *float64 `json:"duration_ms"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatalf("%v: %s", err, lines[0])
	}
	if first.Msg != "request" || first.Method != "GET" || first.Path != "/gopher/"+menu+"/1/" || first.Status != 200 ||
		first.Bytes == 0 || first.Scheme != "gopher" || first.Host != menu || first.DurationMS == nil {
		t.Errorf("first line: %+v\n%s", first, lines[0])
	}
	if !strings.Contains(lines[1], `"path":"/ftp/alice:****@`+menu+`/pub/"`) || !strings.Contains(lines[1], `"status":303`) {
		t.Errorf("the address with a password: %s", lines[1])
	}
}

// TestRecorderKeepsReadFrom: the recorder hands a body to the
// ResponseWriter's ReadFrom, and counts it.
func TestRecorderKeepsReadFrom(t *testing.T) {
	var w readFromWriter
	rec := &recorder{ResponseWriter: &w}
	n, err := flusher{rec, http.NewResponseController(rec)}.ReadFrom(strings.NewReader("twelve bytes"))
	if n != 12 || err != nil || !w.readFrom || rec.bytes != 12 || rec.code() != 200 {
		t.Errorf("ReadFrom: %d, %v; the writer's own ReadFrom %v, counted %d, status %d", n, err, w.readFrom, rec.bytes, rec.code())
	}
}

// readFromWriter is a ResponseWriter with a ReadFrom of its own.
type readFromWriter struct {
	h        http.Header
	readFrom bool
}

func (w *readFromWriter) Header() http.Header {
	if w.h == nil {
		w.h = http.Header{}
	}
	return w.h
}
func (w *readFromWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *readFromWriter) WriteHeader(int)             {}
func (w *readFromWriter) Flush()                      {}
func (w *readFromWriter) ReadFrom(r io.Reader) (int64, error) {
	w.readFrom = true
	return io.Copy(io.Discard, r)
}
