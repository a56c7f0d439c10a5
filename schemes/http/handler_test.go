package http

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// testDialer connects to loopback only, counting its dials and TLS
// handshakes; the rest is transport.Dialer's.
type testDialer struct {
	transport.Dialer
	mu    sync.Mutex
	dials []string
	tlss  []string
}

func (d *testDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	d.mu.Lock()
	d.dials = append(d.dials, fmt.Sprintf("%s %s %d", scheme, host, port))
	d.mu.Unlock()
	if host != "127.0.0.1" && host != "::1" {
		return nil, &schemes.Error{Phase: "dial", Kind: schemes.KindConnect, Msg: "test dialer: loopback only"}
	}
	return d.Dialer.Dial(ctx, scheme, host, port)
}

func (d *testDialer) StartTLS(ctx context.Context, c net.Conn, scheme, host string, opts ...schemes.TLSOption) (net.Conn, error) {
	d.mu.Lock()
	d.tlss = append(d.tlss, scheme+" "+host)
	d.mu.Unlock()
	return d.Dialer.StartTLS(ctx, c, scheme, host, opts...)
}

func (d *testDialer) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.dials)
}

// recTrace records every traced line and every secret.
type recTrace struct {
	mu      sync.Mutex
	lines   []string
	secrets []string
}

func (r *recTrace) add(s string)      { r.mu.Lock(); r.lines = append(r.lines, s); r.mu.Unlock() }
func (r *recTrace) Sent(l string)     { r.add("> " + l) }
func (r *recTrace) Received(l string) { r.add("< " + l) }
func (r *recTrace) Info(l string)     { r.add("* " + l) }
func (r *recTrace) Secret(s string)   { r.mu.Lock(); r.secrets = append(r.secrets, s); r.mu.Unlock() }

func (r *recTrace) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

func (r *recTrace) has(line string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.lines {
		if l == line {
			return true
		}
	}
	return false
}

type env struct {
	t      *testing.T
	srv    *httptest.Server
	h      *Handler
	dialer *testDialer
}

func newEnv(t *testing.T, handler http.HandlerFunc, tlsServer bool) *env {
	t.Helper()
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	if tlsServer {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	h := &Handler{}
	t.Cleanup(h.CloseIdleConnections)
	d := &testDialer{}
	if tlsServer {
		d.TLS = srv.Client().Transport.(*http.Transport).TLSClientConfig // trusts the test CA
	}
	return &env{t: t, srv: srv, h: h, dialer: d}
}

// req builds a request for path (which may hold "?" and "#") on the server.
func (e *env) req(path string) (*schemes.Request, *recTrace) {
	e.t.Helper()
	loc, err := parse(e.srv.URL + path)
	if err != nil {
		e.t.Fatal(err)
	}
	tr := &recTrace{}
	return &schemes.Request{URL: loc, Dialer: e.dialer, Trace: tr}, tr
}

func (e *env) fetch(path string) (*schemes.Response, *recTrace, error) {
	e.t.Helper()
	r, tr := e.req(path)
	resp, err := e.h.Fetch(context.Background(), r)
	return resp, tr, err
}

func readAll(t *testing.T, r *schemes.Response) string {
	t.Helper()
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFetch200(t *testing.T) {
	sum := sha256.Sum256([]byte("hello"))
	var got struct {
		sync.Mutex
		uri, host, ua, enc string
		fragment           bool
	}
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		got.Lock()
		got.uri, got.host, got.ua, got.enc = r.RequestURI, r.Host, r.UserAgent(), r.Header.Get("Accept-Encoding")
		got.Unlock()
		w.Header().Set("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Digest", "MD5=xyz=, SHA-256="+base64.StdEncoding.EncodeToString(sum[:]))
		io.WriteString(w, "hello")
	}, false)
	resp, tr, err := e.fetch("/a%2Fb%20c?x=%41#frag")
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp); body != "hello" {
		t.Errorf("body %q", body)
	}
	got.Lock()
	defer got.Unlock()
	if got.uri != "/a%2Fb%20c?x=%41" {
		t.Errorf("RequestURI %q, want /a%%2Fb%%20c?x=%%41 exactly", got.uri)
	}
	if host := strings.TrimPrefix(e.srv.URL, "http://"); got.host != host || got.ua != "urlget/0.1" || got.enc != "" {
		t.Errorf("Host %q User-Agent %q Accept-Encoding %q", got.host, got.ua, got.enc)
	}
	want := time.Date(2015, 10, 21, 7, 28, 0, 0, time.UTC)
	if resp.Status != 200 || resp.Size != 5 || resp.Offset != 0 || resp.Type != "text/plain" || !resp.ModTime.Equal(want) ||
		resp.Precision != time.Second || resp.ETag != `"v1"` || resp.Kind != schemes.EntryFile ||
		resp.Name != "b c" || resp.SHA256 != hex.EncodeToString(sum[:]) || resp.Redirect != "" {
		t.Errorf("response %+v", resp)
	}
	for _, line := range []string{
		"> GET /a%2Fb%20c?x=%41 HTTP/1.1",
		"> Host: " + got.host,
		"> User-Agent: urlget/0.1",
		"< HTTP/1.1 200 OK",
		"< Content-Type: text/plain",
		"< Content-Length: 5",
	} {
		if !tr.has(line) {
			t.Errorf("trace lacks %q:\n%s", line, tr)
		}
	}
	t.Logf("trace:\n%s", tr)
	if strings.Contains(tr.String(), "frag") {
		t.Errorf("fragment traced as sent:\n%s", tr)
	}
}

func TestRequestTargets(t *testing.T) {
	var mu sync.Mutex
	var uri string
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		uri = r.RequestURI
		mu.Unlock()
	}, false)
	hostport := strings.TrimPrefix(e.srv.URL, "http://")
	for path, want := range map[string]string{
		"":                   "/",
		"/":                  "/",
		"/?":                 "/?",
		"/p;a=b?q/r?s#f":     "/p;a=b?q/r?s",
		"/a b~c":             "/a%20b%7Ec",
		"/%41%2f%3F?%26=%3D": "/%41%2f%3F?%26=%3D",
		"//x/y":              "http://" + hostport + "//x/y", // absolute form: "//x" would read as a host
	} {
		resp, _, err := e.fetch(path)
		if err != nil {
			t.Errorf("%q: %v", path, err)
			continue
		}
		readAll(t, resp)
		mu.Lock()
		if uri != want {
			t.Errorf("%q: server saw %q, want %q", path, uri, want)
		}
		mu.Unlock()
	}
}

func TestFetchTLS(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			t.Error("not TLS")
		}
		io.WriteString(w, "secure")
	}, true)
	resp, tr, err := e.fetch("/x")
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp); body != "secure" {
		t.Errorf("body %q", body)
	}
	if e.dialer.dials[0] != "https 127.0.0.1 "+e.srv.URL[strings.LastIndexByte(e.srv.URL, ':')+1:] {
		t.Errorf("dials %q", e.dialer.dials)
	}
	// The handshake is the Dialer's (certificate policy, tracing), with
	// HTTP/1.1 the only protocol offered.
	if !slices.Equal(e.dialer.tlss, []string{"https 127.0.0.1"}) || resp.Status != 200 {
		t.Errorf("StartTLS calls %q", e.dialer.tlss)
	}
	if !strings.Contains(tr.String(), "* TLS ") {
		t.Errorf("no TLS note in trace:\n%s", tr)
	}
	// Without the test CA the certificate is refused.
	r, _ := e.req("/x")
	r.Dialer = &testDialer{}
	_, err = (&Handler{}).Fetch(context.Background(), r)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindSafety || se.Phase != "tls" || se.Retryable ||
		se.Setting != transport.SettingTrust {
		t.Errorf("untrusted certificate: %#v", err)
	}
}

func TestStatusKinds(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.WriteHeader(code)
		io.WriteString(w, "error page")
	}, false)
	for _, c := range []struct {
		code      int
		kind      schemes.Kind
		retryable bool
	}{
		{404, schemes.KindNotFound, false},
		{410, schemes.KindNotFound, false},
		{401, schemes.KindPermission, false},
		{403, schemes.KindPermission, false},
		{407, schemes.KindPermission, false},
		{400, schemes.KindProtocol, false},
		{418, schemes.KindProtocol, false},
		{429, schemes.KindBusy, true},
		{500, schemes.KindProtocol, true},
		{501, schemes.KindProtocol, false},
		{502, schemes.KindProtocol, true},
		{503, schemes.KindBusy, true},
		{504, schemes.KindProtocol, true},
		{300, schemes.KindProtocol, false},
		{304, schemes.KindProtocol, false},
	} {
		_, _, err := e.fetch("/" + strconv.Itoa(c.code))
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != c.kind || se.Code != c.code || se.Retryable != c.retryable ||
			se.Phase != "response" || se.Scheme != "http" {
			t.Errorf("%d: err = %#v", c.code, err)
		}
		if c.kind == schemes.KindNotFound && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%d: not fs.ErrNotExist", c.code)
		}
	}
	// The connection survives error statuses: one dial for all of them.
	if n := e.dialer.count(); n != 1 {
		t.Errorf("%d dials, want 1 (connection reuse)", n)
	}
}

func TestRedirect(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/dir/sub/page":
			w.Header().Set("Location", "../other%2Fx?y=%41")
			w.WriteHeader(http.StatusFound)
		case "/abs":
			w.Header().Set("Location", "http://example.com/a%20b#top")
			w.WriteHeader(http.StatusMovedPermanently)
		case "/space":
			w.Header().Set("Location", "/new place")
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "/none":
			w.WriteHeader(http.StatusSeeOther)
		case "/bad":
			w.Header().Set("Location", "/a%zz")
			w.WriteHeader(http.StatusPermanentRedirect)
		}
		io.WriteString(w, "moved")
	}, false)
	for path, want := range map[string]string{
		"/dir/sub/page#frag": e.srv.URL + "/dir/other%2Fx?y=%41#frag",
		"/abs#frag":          "http://example.com/a%20b#top",
		"/space":             e.srv.URL + "/new%20place",
	} {
		resp, tr, err := e.fetch(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if resp.Redirect != want || resp.Status < 301 || resp.Status > 308 || resp.Body != nil {
			t.Errorf("%s: Redirect %q status %d, want %q", path, resp.Redirect, resp.Status, want)
		}
		if !strings.Contains(tr.String(), "* redirect to "+want) {
			t.Errorf("%s: trace:\n%s", path, tr)
		}
	}
	for _, path := range []string{"/none", "/bad"} {
		if _, _, err := e.fetch(path); schemes.KindOf(err) != schemes.KindProtocol {
			t.Errorf("%s: err = %v, want KindProtocol", path, err)
		}
	}
	if e.dialer.count() != 1 {
		t.Errorf("dials %q: redirects must not be followed", e.dialer.dials)
	}
}

func TestBasicAuth(t *testing.T) {
	var mu sync.Mutex
	var user, pass, raw string
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		user, pass, _ = r.BasicAuth()
		raw = r.Header.Get("Authorization")
		mu.Unlock()
	}, false)
	check := func(name string, tr *recTrace, wantUser, wantPass string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if user != wantUser || pass != wantPass {
			t.Errorf("%s: server saw %q:%q", name, user, pass)
		}
		if !tr.has("> Authorization: Basic ****") {
			t.Errorf("%s: trace lacks redacted Authorization:\n%s", name, tr)
		}
		s := tr.String()
		if strings.Contains(s, wantPass) || strings.Contains(s, strings.TrimPrefix(raw, "Basic ")) {
			t.Errorf("%s: trace shows the credentials:\n%s", name, s)
		}
		if len(tr.secrets) != 1 || tr.secrets[0] != wantPass {
			t.Errorf("%s: secrets %q", name, tr.secrets)
		}
	}
	loc, _ := parse(strings.Replace(e.srv.URL, "//", "//al%20ice:s3cr%40t@", 1) + "/x")
	tr := &recTrace{}
	r := &schemes.Request{URL: loc, Dialer: e.dialer, Trace: tr}
	resp, err := e.h.Fetch(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp)
	check("URL", tr, "al ice", "s3cr@t")
	plan, _ := e.h.Explain(r)
	if plan[len(plan)-1] != "Authorization: Basic ****" {
		t.Errorf("Explain %q", plan)
	}

	r, tr = e.req("/x")
	r.Credentials = func(scheme, host string, port int) (string, string, bool) {
		return "bob", "hunter2", scheme == "http" && host == "127.0.0.1"
	}
	resp, err = e.h.Fetch(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp)
	check("Credentials", tr, "bob", "hunter2")
}

func TestCancelMidBody(t *testing.T) {
	release := make(chan struct{})
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000000")
		w.Write(make([]byte, 100))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, false)
	t.Cleanup(func() { close(release) }) // runs before srv.Close
	r, _ := e.req("/slow")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := e.h.Fetch(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadFull(resp.Body, make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	// Cancel once the read is blocked waiting for the rest of the body.
	copied := make(chan error, 1)
	go copyBody(resp.Body, copied)
	await.Parked(t, "http.copyBody(")
	cancel()
	select {
	case err = <-copied:
	case <-time.After(10 * time.Second):
		t.Fatal("the read went on 10 s after cancel")
	}
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindCanceled || se.Phase != "body" || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %#v, want KindCanceled in phase body", err)
	}
}

// copyBody reads r to its end and sends the error; a function of its own,
// so that await.Parked can tell when its Read is blocked.
func copyBody(r io.Reader, copied chan<- error) {
	_, err := io.Copy(io.Discard, r)
	copied <- err
}

func TestHeaderTimeout(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cancel" {
			arrived <- struct{}{}
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, false)
	t.Cleanup(func() { close(release) })
	r, _ := e.req("/hang")
	r.Timeout = 100 * time.Millisecond
	start := time.Now()
	_, err := e.h.Fetch(context.Background(), r)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindTimeout || !se.Retryable || time.Since(start) > 5*time.Second {
		t.Errorf("err = %#v after %v, want KindTimeout", err, time.Since(start))
	}
	// A canceled context is KindCanceled, before and during the request
	// (canceled once the server has it, waiting for its header).
	r, _ = e.req("/cancel")
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	if _, err := e.h.Fetch(ctx, r); schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("canceled during request: %v", err)
	}
	if _, err := e.h.Fetch(ctx, r); schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("canceled before request: %v", err)
	}
}

func TestShortBody(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234")
		buf.Flush()
		conn.Close()
	}, false)
	resp, _, err := e.fetch("/short")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	var se *schemes.Error
	if string(b) != "01234" || !errors.As(err, &se) || se.Phase != "body" || !se.Retryable || se.Kind != schemes.KindConnect ||
		se.Kind.ExitCode() != 5 {
		t.Errorf("read %q, err %#v; want 5 bytes and a retryable connect error in phase body", b, err)
	}
}

func TestDialError(t *testing.T) {
	loc, _ := parse("http://unreachable.example/x")
	r := &schemes.Request{URL: loc, Dialer: &testDialer{}}
	_, err := (&Handler{}).Fetch(context.Background(), r)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindConnect { // the Dialer's error, as it is
		t.Errorf("err = %#v", err)
	}
	// Without a Dialer there is no way to connect.
	r.Dialer = nil
	if _, err := (&Handler{}).Fetch(context.Background(), r); err == nil {
		t.Error("no error without a Dialer")
	}
}

func TestConcurrentReuse(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) }, false)
	var wg sync.WaitGroup
	var dialsTraced atomic.Bool
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := "/" + strconv.Itoa(i)
			resp, tr, err := e.fetch(p)
			if err != nil {
				t.Error(err)
				return
			}
			if body := readAll(t, resp); body != p {
				t.Errorf("body %q, want %q", body, p)
			}
			if strings.Contains(tr.String(), "* Connecting to ") {
				dialsTraced.Store(true)
			}
		}()
	}
	wg.Wait()
	if !dialsTraced.Load() {
		t.Fatal("no fetch traced its dial: the check below would prove nothing")
	}
	// Reuse is judged by each fetch's own trace, where the Dialer notes a
	// connection it opens for it. Counting the Dialer's calls would also
	// count the dials net/http goes on with, in goroutines of its own, for
	// concurrent requests another connection served meanwhile (it keeps
	// such connections for later requests): under load one of them may
	// start after wg.Wait.
	for range 3 {
		resp, tr, err := e.fetch("/seq")
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, resp)
		if strings.Contains(tr.String(), "* Connecting to ") {
			t.Errorf("a sequential fetch dialed instead of reusing a connection:\n%s", tr)
		}
	}
}

func TestExplain(t *testing.T) {
	h := &Handler{}
	loc, _ := parse("https://h.example:8443/a%2Fb?q=1#f")
	r := &schemes.Request{URL: loc, Offset: 5,
		Partial: schemes.Partial{Record: &schemes.ResumeRecord{ModTime: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Size: -1}}}
	plan, err := h.Explain(r)
	want := []string{
		"connect h.example:8443 (TLS)",
		"GET /a%2Fb?q=1 HTTP/1.1",
		"Host: h.example:8443",
		"User-Agent: urlget/0.1",
		"Range: bytes=5-",
		"If-Range: Thu, 02 Jan 2020 03:04:05 GMT",
	}
	if err != nil || strings.Join(plan, "\n") != strings.Join(want, "\n") {
		t.Errorf("Explain = %q, %v\nwant %q", plan, err, want)
	}
	// The resume headers under the one rule: a strong ETag is the
	// validator, a weak one never; no record, no If-Range.
	mod := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		rec  *schemes.ResumeRecord
		want string
	}{
		{&schemes.ResumeRecord{ETag: `"abc"`, ModTime: mod, Size: 9}, `Range: bytes=5-|If-Range: "abc"`},
		{&schemes.ResumeRecord{ETag: `W/"abc"`, ModTime: mod, Size: 9}, "Range: bytes=5-|If-Range: Thu, 02 Jan 2020 03:04:05 GMT"},
		{&schemes.ResumeRecord{ETag: `W/"abc"`, Size: 9}, "Range: bytes=5-"},
		{nil, "Range: bytes=5-"},
	} {
		r := &schemes.Request{URL: loc, Offset: 5, Partial: schemes.Partial{ModTime: mod, Record: c.rec}}
		plan, _ := h.Explain(r)
		if got := strings.Join(plan[4:], "|"); got != c.want {
			t.Errorf("record %+v: resume lines %q, want %q", c.rec, got, c.want)
		}
	}
	loc, _ = parse("http://h.example")
	plan, _ = h.Explain(&schemes.Request{URL: loc})
	if strings.Join(plan, "|") != "connect h.example:80|GET / HTTP/1.1|Host: h.example|User-Agent: urlget/0.1" {
		t.Errorf("Explain = %q", plan)
	}
}

func TestSchemes(t *testing.T) {
	if s := Schemes(nil); len(s) != 2 || s[0].Name != "http" || s[1].Name != "https" || s[0].Handler != nil {
		t.Errorf("Schemes(nil) = %+v", s)
	}
	h := &Handler{}
	r := schemes.NewRegistry()
	for _, s := range Schemes(h) {
		want := schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | schemes.Conditional | schemes.Crawls | schemes.RedirectTarget |
			schemes.Pages | schemes.Ranges | schemes.MultiRanges | schemes.OneProcessor | schemes.Pipelines
		if s.Name == "https" {
			want |= schemes.TLS // http has no upgrade
		}
		if s.Handler != h || s.Caps != want || !s.Caps.Redirectable() {
			t.Errorf("%s: handler %v caps %v", s.Name, s.Handler, s.Caps)
		}
		r.Register(s)
	}
	for _, s := range Schemes(&Handler{Window: 1}) {
		if s.Caps.Has(schemes.Pipelines) {
			t.Errorf("%s with a window of 1: caps %v", s.Name, s.Caps)
		}
	}
	if loc, err := r.Parse("https://h.example/x"); err != nil || !loc.(*URL).TLS() {
		t.Errorf("registry parse: %v %v", loc, err)
	}
}

func TestContentRange(t *testing.T) {
	for s, want := range map[string][4]int64{ // first, last, total, ok
		"bytes 4-9/10":  {4, 9, 10, 1},
		"bytes 4-9/*":   {4, 9, -1, 1},
		"BYTES 0-0/1":   {0, 0, 1, 1},
		"bytes */10":    {-1, -1, 10, 1},
		"bytes */*":     {0, 0, 0, 0},
		"bytes 9-4/10":  {0, 0, 0, 0},
		"bytes 4-10/10": {0, 0, 0, 0},
		"bytes -4-9/10": {0, 0, 0, 0},
		"items 4-9/10":  {0, 0, 0, 0},
		"":              {0, 0, 0, 0},
	} {
		f, l, tot, ok := contentRange(s)
		okn := int64(0)
		if ok {
			okn = 1
		}
		if got := [4]int64{f, l, tot, okn}; got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}

func TestSHA256Headers(t *testing.T) {
	sum := sha256.Sum256([]byte("x"))
	b64, hx := base64.StdEncoding.EncodeToString(sum[:]), hex.EncodeToString(sum[:])
	for _, c := range []struct {
		h    http.Header
		want string
	}{
		{http.Header{"Repr-Digest": {"sha-512=:AAAA:, sha-256=:" + b64 + ":"}}, hx},
		{http.Header{"Digest": {"sha-256=" + b64}}, hx},
		{http.Header{"Digest": {"SHA-256=" + hx}}, hx},
		{http.Header{"Digest": {"md5=abc"}}, ""},
		{http.Header{"Digest": {"sha-256=short"}}, ""},
		{http.Header{}, ""},
	} {
		if got := sha256Of(c.h); got != c.want {
			t.Errorf("%v: %q, want %q", c.h, got, c.want)
		}
	}
}

func TestDispositionName(t *testing.T) {
	for cd, want := range map[string]string{
		`attachment; filename="report.pdf"`:          "report.pdf",
		`attachment; filename="../../etc/passwd"`:    "passwd",
		`attachment; filename="C:\\x\\evil.exe"`:     "evil.exe",
		`attachment; filename*=UTF-8''%E2%82%AC.txt`: "\u20ac.txt",
		`attachment; filename=".."`:                  "",
		`inline`:                                     "",
		`garbage;;`:                                  "",
	} {
		if got := dispositionName(cd); got != want {
			t.Errorf("%s: %q, want %q", cd, got, want)
		}
	}
}

// TestCanceledBodyFails: once the fetch's context is canceled, reading the
// body fails even though the whole (small) body has already arrived.
func TestCanceledBodyFails(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "just a few bytes") }, false)
	r, _ := e.req("/x")
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := e.h.Fetch(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	_, err = io.ReadAll(resp.Body)
	if !errors.Is(err, context.Canceled) || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err %v (kind %v), want a cancellation", err, schemes.KindOf(err))
	}
}
