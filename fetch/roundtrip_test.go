package fetch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/file"
)

// httpClient is a plain http.Client whose Transport has c's RoundTripper
// registered for names.
func httpClient(c *Client, names ...string) *http.Client {
	t := &http.Transport{}
	rt := c.RoundTripper()
	for _, n := range names {
		t.RegisterProtocol(n, rt)
	}
	return &http.Client{Transport: t}
}

// noFollow shows redirects instead of following them.
func noFollow(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// roundTrip asks hc for url with method and header fields (name, value,
// ...), and returns the response with its body read.
func roundTrip(t *testing.T, hc *http.Client, method, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return resp, string(b)
}

func TestRoundTripFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	const content = "0123456789abcdef"
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(name, mod, mod)
	hc := httpClient(&Client{}, "file")
	u := "file://" + filepath.ToSlash(name)
	for _, c := range []struct {
		method       string
		header       []string
		status       int
		body, crange string
		length       int64
	}{
		{"GET", nil, 200, content, "", 16},
		{"GET", []string{"Range", "bytes=3-"}, 206, content[3:], "bytes 3-15/16", 13},
		{"GET", []string{"Range", "bytes=3-5"}, 206, content[3:6], "bytes 3-5/16", 3},
		{"GET", []string{"Range", "bytes=0-0"}, 206, "0", "bytes 0-0/16", 1},
		{"GET", []string{"Range", "bytes=10-99"}, 206, content[10:], "bytes 10-15/16", 6},
		{"GET", []string{"Range", "bytes=16-"}, 416, "", "bytes */16", 0},
		{"GET", []string{"Range", "bytes=99-"}, 416, "", "bytes */16", 0},
		{"GET", []string{"Range", "bytes=-3"}, 200, content, "", 16}, // suffix ranges are answered whole
		{"GET", []string{"Range", "bytes=3-", "If-Range", `"x"`}, 200, content, "", 16},
		{"HEAD", nil, 200, "", "", 16},
		{"HEAD", []string{"Range", "bytes=3-"}, 200, "", "", 16}, // Range is GET's only
		{"GET", []string{"If-Modified-Since", mod.Format(http.TimeFormat)}, 304, "", "", 0},
		{"GET", []string{"If-Modified-Since", mod.Add(time.Hour).Format(http.TimeFormat)}, 304, "", "", 0},
		{"HEAD", []string{"If-Modified-Since", mod.Format(http.TimeFormat)}, 304, "", "", 0},
		{"GET", []string{"If-Modified-Since", mod.Add(-time.Second).Format(http.TimeFormat)}, 200, content, "", 16},
		{"GET", []string{"If-Modified-Since", "yesterday"}, 200, content, "", 16}, // ignored
	} {
		resp, body := roundTrip(t, hc, c.method, u, c.header...)
		if resp.StatusCode != c.status || body != c.body || resp.Header.Get("Content-Range") != c.crange || resp.ContentLength != c.length {
			t.Errorf("%s %v: %d %q Content-Range %q length %d; want %d %q %q %d", c.method, c.header,
				resp.StatusCode, body, resp.Header.Get("Content-Range"), resp.ContentLength, c.status, c.body, c.crange, c.length)
		}
		if c.status/100 == 2 {
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("%s %v: Content-Type %q", c.method, c.header, ct)
			}
			if resp.Header.Get("Accept-Ranges") != "bytes" {
				t.Errorf("%s %v: no Accept-Ranges", c.method, c.header)
			}
		}
		if c.status != 416 && resp.Header.Get("Last-Modified") != mod.Format(http.TimeFormat) {
			t.Errorf("%s %v: Last-Modified %q", c.method, c.header, resp.Header.Get("Last-Modified"))
		}
	}
	if resp, _ := roundTrip(t, hc, "GET", u+".missing"); resp.StatusCode != 404 {
		t.Errorf("missing file: %d", resp.StatusCode)
	}
	resp, body := roundTrip(t, hc, "POST", u)
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" || !strings.Contains(body, "POST") {
		t.Errorf("POST: %d %v %q", resp.StatusCode, resp.Header, body)
	}
}

// rtHandler is a scheme's handler whose every answer comes from fetch;
// as a Stater it answers the same without a body.
type rtHandler struct {
	fetch func(req *schemes.Request) (*schemes.Response, error)
	stats atomic.Int32
}

func (h *rtHandler) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.fetch(req)
}

func (h *rtHandler) Stat(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.stats.Add(1)
	r, err := h.fetch(req)
	if r != nil && r.Body != nil {
		r.Body.Close()
		r.Body = nil
	}
	return r, err
}

func (h *rtHandler) Explain(*schemes.Request) ([]string, error) { return nil, nil }

// rtClient is a Client of the scheme "rt" with caps, answered by fn,
// and of the file scheme.
func rtClient(caps schemes.Caps, fn func(req *schemes.Request) (*schemes.Response, error)) (*Client, *rtHandler) {
	h := &rtHandler{fetch: fn}
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "rt", Handler: h, Caps: caps,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	for _, s := range file.Schemes(&file.Handler{}) {
		r.Register(s)
	}
	return &Client{Registry: r, RetryDelay: time.Millisecond}, h
}

func body(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

func TestRoundTripStatuses(t *testing.T) {
	for _, c := range []struct {
		err        *schemes.Error
		status     int
		retryAfter string
		challenge  bool
	}{
		{&schemes.Error{Kind: schemes.KindNotFound, Code: 550, Msg: "no such file"}, 404, "", false},
		{&schemes.Error{Kind: schemes.KindPermission, Phase: "retr", Code: 550, Msg: "permission denied"}, 403, "", false},
		{&schemes.Error{Kind: schemes.KindPermission, Phase: "login", Code: 530, Msg: "login incorrect"}, 401, "", true},
		{&schemes.Error{Kind: schemes.KindPermission, Phase: "authinfo", Code: 481, Msg: "authentication failed"}, 401, "", true},
		{&schemes.Error{Kind: schemes.KindSafety, Msg: "refused"}, 403, "", false},
		{&schemes.Error{Kind: schemes.KindProtocol, Msg: "garbage"}, 502, "", false},
		{&schemes.Error{Kind: schemes.KindConnect, Msg: "connection refused"}, 502, "", false},
		{&schemes.Error{Kind: schemes.KindOther, Msg: "?"}, 502, "", false},
		{&schemes.Error{Kind: schemes.KindTimeout, Msg: "idle timeout"}, 504, "", false},
		{&schemes.Error{Kind: schemes.KindBusy, Code: 421, Msg: "too many users"}, 503, "60", false},
		{&schemes.Error{Kind: schemes.KindBusy, Code: 503, Msg: "busy", RetryAfter: 1500 * time.Millisecond}, 503, "2", false},
		{&schemes.Error{Kind: schemes.KindUsage, Part: "selector", Msg: "bad selector"}, 400, "", false},
		{&schemes.Error{Kind: schemes.KindUnsupported, Msg: "no such feature"}, 501, "", false},
		{&schemes.Error{Kind: schemes.KindLocal, Msg: "disk full"}, 500, "", false},
	} {
		c.err.Scheme = "rt"
		cl, _ := rtClient(schemes.Retrieves, func(*schemes.Request) (*schemes.Response, error) { return nil, c.err })
		hc := httpClient(cl, "rt")
		resp, b := roundTrip(t, hc, "GET", "rt://h/x")
		if resp.StatusCode != c.status || resp.Header.Get("Retry-After") != c.retryAfter || !strings.Contains(b, c.err.Msg) {
			t.Errorf("%v: %d Retry-After %q %q, want %d %q", c.err.Kind, resp.StatusCode, resp.Header.Get("Retry-After"), b, c.status, c.retryAfter)
		}
		if got := resp.Header.Get("WWW-Authenticate"); (got != "") != c.challenge || c.challenge && got != `Basic realm="rt://h", charset="UTF-8"` {
			t.Errorf("%v at %s: WWW-Authenticate %q", c.err.Kind, c.err.Phase, got)
		}
		if resp, _ := roundTrip(t, hc, "HEAD", "rt://h/x"); resp.StatusCode != c.status {
			t.Errorf("HEAD %v: %d, want %d", c.err.Kind, resp.StatusCode, c.status)
		}
	}
}

// TestRoundTripCallersErrors: a request canceled, or past its deadline,
// is RoundTrip's error, not a response.
func TestRoundTripCallersErrors(t *testing.T) {
	cl, _ := rtClient(schemes.Retrieves, func(req *schemes.Request) (*schemes.Response, error) {
		return nil, &schemes.Error{Kind: schemes.KindCanceled, Err: context.Canceled}
	})
	hc := httpClient(cl, "rt")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "rt://h/x", nil)
	if resp, err := hc.Do(req); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v %v", resp, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), -time.Second)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "GET", "rt://h/x", nil)
	if resp, err := hc.Do(req); err == nil {
		t.Errorf("past its deadline: %v", resp.Status)
	}
}

// TestRoundTripRangeWithoutResume: a scheme that cannot resume answers a
// Range with the whole resource, 200, and one past its end with 416.
func TestRoundTripRangeWithoutResume(t *testing.T) {
	var offsets []int64
	cl, _ := rtClient(schemes.Retrieves, func(req *schemes.Request) (*schemes.Response, error) {
		offsets = append(offsets, req.Offset)
		return &schemes.Response{Body: body("whole"), Size: 5, Name: "x.bin"}, nil
	})
	hc := httpClient(cl, "rt")
	resp, b := roundTrip(t, hc, "GET", "rt://h/x.bin", "Range", "bytes=2-")
	if resp.StatusCode != 200 || b != "whole" || resp.Header.Get("Accept-Ranges") != "" || resp.Header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("%d %q %v", resp.StatusCode, b, resp.Header)
	}
	if resp, _ := roundTrip(t, hc, "GET", "rt://h/x.bin", "Range", "bytes=5-"); resp.StatusCode != 416 || resp.Header.Get("Content-Range") != "bytes */5" {
		t.Errorf("past the end: %d %v", resp.StatusCode, resp.Header)
	}
	if len(offsets) != 2 || offsets[0] != 0 || offsets[1] != 0 {
		t.Errorf("offsets asked of a scheme that does not resume: %v", offsets)
	}
}

// TestRoundTripConditional: a Conditional scheme is asked with the date;
// one that Stats (and is not Conditional) is stat'ed and not fetched
// when unchanged; one that does neither is fetched for its time. A time
// known only to the minute is unchanged only when the whole minute is.
func TestRoundTripConditional(t *testing.T) {
	mod := time.Date(2024, 5, 6, 7, 8, 0, 0, time.UTC)
	for _, c := range []struct {
		caps      schemes.Caps
		prec      time.Duration
		ims       time.Time
		status    int
		fetches   int
		stats     int32
		askedDate bool
	}{
		{schemes.Retrieves | schemes.Conditional, time.Second, mod, 304, 1, 0, true},
		{schemes.Retrieves | schemes.Stats, time.Second, mod, 304, 0, 1, false},
		{schemes.Retrieves | schemes.Stats, time.Second, mod.Add(-time.Second), 200, 1, 1, false},
		{schemes.Retrieves, time.Second, mod, 304, 1, 0, false},
		{schemes.Retrieves, time.Minute, mod.Add(30 * time.Second), 200, 1, 0, false},
		{schemes.Retrieves, time.Minute, mod.Add(59 * time.Second), 304, 1, 0, false},
	} {
		fetches, asked := 0, false
		cl, h := rtClient(c.caps, func(req *schemes.Request) (*schemes.Response, error) {
			fetches++
			asked = asked || !req.IfModifiedSince.IsZero()
			if !req.IfModifiedSince.IsZero() && !mod.After(req.IfModifiedSince) {
				return &schemes.Response{Body: body(""), NotModified: true, ModTime: mod, Precision: c.prec, Size: -1}, nil
			}
			return &schemes.Response{Body: body("data"), Size: 4, ModTime: mod, Precision: c.prec}, nil
		})
		resp, b := roundTrip(t, httpClient(cl, "rt"), "GET", "rt://h/x", "If-Modified-Since", c.ims.Format(http.TimeFormat))
		fetches -= int(h.stats.Load()) // Stat answers through fetch too
		if resp.StatusCode != c.status || c.status == 200 && b != "data" || fetches != c.fetches || h.stats.Load() != c.stats || asked != c.askedDate {
			t.Errorf("%v prec %v since %v: %d %q, %d fetches %d stats, date asked %v", c.caps, c.prec, c.ims, resp.StatusCode, b, fetches, h.stats.Load(), asked)
		}
	}
}

// TestRoundTripListing: a listing is JSON lines, each line the entry as
// --json writes it, for the entries a direct List gives.
func TestRoundTripListing(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.txt", "a <&> b", "c"} {
		os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	u := "file://" + filepath.ToSlash(dir) + "/"
	c := &Client{}
	resp, got := roundTrip(t, httpClient(c, "file"), "GET", u)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ListingMediaType || resp.ContentLength != -1 {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	l, err := c.List(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(l.Listing)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, e := range entries {
		b, _ := json.Marshal(e)
		want.Write(b)
		want.WriteByte('\n')
	}
	if got != want.String() || len(entries) != 4 {
		t.Errorf("through the RoundTripper:\n%s\ndirect:\n%s", got, want.String())
	}
	sc := bufio.NewScanner(strings.NewReader(got))
	for sc.Scan() {
		var e struct{ Name, Kind, URL string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Name == "" || !strings.HasPrefix(e.URL, u) {
			t.Errorf("line %s: %+v %v", sc.Text(), e, err)
		}
	}
	if resp, _ := roundTrip(t, httpClient(c, "file"), "HEAD", u); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ListingMediaType {
		t.Errorf("HEAD of a directory: %d %v", resp.StatusCode, resp.Header)
	}
}

// listingThrough is the response to a GET of a listing whose Next is
// next, through the RoundTripper.
func listingThrough(t *testing.T, next func() (schemes.Entry, error)) *http.Response {
	t.Helper()
	cl, _ := rtClient(schemes.Retrieves, func(req *schemes.Request) (*schemes.Response, error) {
		return &schemes.Response{Listing: schemes.ListingFunc(next, nil), Kind: schemes.EntryDir, Size: -1}, nil
	})
	resp, err := httpClient(cl, "rt").Get("rt://h/dir/")
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestRoundTripListingStreams: the first entry's line is read before the
// listing yields its second, so a listing is never held whole.
func TestRoundTripListingStreams(t *testing.T) {
	second := make(chan struct{})
	n := 0
	resp := listingThrough(t, func() (schemes.Entry, error) {
		n++
		switch n {
		case 1:
			return schemes.Entry{Name: "first", Kind: schemes.EntryFile, Size: 1}, nil
		case 2:
			<-second // until the reader has the first line
			return schemes.Entry{Name: "second", Kind: schemes.EntryFile, Size: -1}, nil
		}
		return schemes.Entry{}, io.EOF
	})
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	line, err := r.ReadString('\n')
	if err != nil || line != `{"name":"first","kind":"file","size":1}`+"\n" {
		t.Fatalf("first line %q %v", line, err)
	}
	close(second)
	rest, err := io.ReadAll(r)
	if err != nil || string(rest) != `{"name":"second","kind":"file","size":null}`+"\n" {
		t.Errorf("rest %q %v", rest, err)
	}
}

// TestRoundTripListingError: a listing that fails midway fails the
// body's read, after the lines that came.
func TestRoundTripListingError(t *testing.T) {
	resp := listingThrough(t, func() (schemes.Entry, error) {
		return schemes.Entry{}, &schemes.Error{Kind: schemes.KindConnect, Msg: "connection reset"}
	})
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Errorf("read: %v", err)
	}
}

// gopherServer serves serve on each connection to 127.0.0.1, and reports
// each connection's end on closed.
func gopherServer(t *testing.T, serve func(selector string, c net.Conn)) (addr string, closed chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	closed = make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer func() { c.Close(); closed <- struct{}{} }()
				sel, err := bufio.NewReader(c).ReadString('\n')
				if err == nil {
					serve(strings.TrimRight(sel, "\r\n"), c)
				}
			}()
		}
	}()
	return ln.Addr().String(), closed
}

// TestRoundTripRedirect: a gopher "h URL:" item is 302 with Location,
// which a plain http.Client follows through the same Transport when the
// Client's RedirectProtocols let a redirect reach gopher (by default they
// do not: 403); one to a local file is refused (403) by the Client's
// redirect policy.
func TestRoundTripRedirect(t *testing.T) {
	addr, _ := gopherServer(t, func(sel string, c net.Conn) { io.WriteString(c, "text at "+sel) })
	target := "gopher://" + addr + "/0/there"
	from := "gopher://" + addr + "/hURL:" + target
	resp, b := roundTrip(t, httpClient(&Client{}, "gopher"), "GET", from)
	if resp.StatusCode != 403 || !strings.Contains(b, "refusing the server's redirect") {
		t.Errorf("by default: %d %q", resp.StatusCode, b)
	}
	hc := httpClient(&Client{RedirectProtocols: Protocols{"gopher": true}}, "gopher", "file")
	resp, b = roundTrip(t, hc, "GET", from)
	if resp.StatusCode != 200 || b != "text at /there" || resp.Request.URL.String() != target {
		t.Errorf("followed: %d %q from %s", resp.StatusCode, b, resp.Request.URL)
	}
	hc.CheckRedirect = noFollow
	resp, _ = roundTrip(t, hc, "GET", from)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != target {
		t.Errorf("not followed: %d %v", resp.StatusCode, resp.Header)
	}
	hc.CheckRedirect = nil
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret"), []byte("secret"), 0o600)
	resp, b = roundTrip(t, hc, "GET", "gopher://"+addr+"/hURL:file://"+filepath.ToSlash(dir)+"/secret")
	if resp.StatusCode != 403 || strings.Contains(b, "secret\n") && !strings.Contains(b, "refusing") {
		t.Errorf("to a local file: %d %q", resp.StatusCode, b)
	}
}

// TestRoundTripResolution: a resolution (Prospero's) is a redirect too,
// and an HTTP-like 3xx keeps its code.
func TestRoundTripResolution(t *testing.T) {
	cl, _ := rtClient(schemes.Retrieves|schemes.RedirectTarget, func(req *schemes.Request) (*schemes.Response, error) {
		switch req.URL.Generic().Path {
		case "resolved":
			return &schemes.Response{Resolved: &schemes.Resolution{URL: "rt://h/there", Chain: []string{"rt://h/resolved"}}, Size: -1}, nil
		case "moved":
			return &schemes.Response{Redirect: "rt://h/there", Status: 301, Body: body("moved"), Size: -1}, nil
		}
		return &schemes.Response{Body: body("there"), Size: 5}, nil
	})
	hc := httpClient(cl, "rt")
	hc.CheckRedirect = noFollow
	for path, status := range map[string]int{"/resolved": 302, "/moved": 301} {
		if resp, _ := roundTrip(t, hc, "GET", "rt://h"+path); resp.StatusCode != status || resp.Header.Get("Location") != "rt://h/there" {
			t.Errorf("%s: %d %v", path, resp.StatusCode, resp.Header)
		}
	}
	hc.CheckRedirect = nil
	if resp, b := roundTrip(t, hc, "GET", "rt://h/resolved"); resp.StatusCode != 200 || b != "there" {
		t.Errorf("followed: %d %q", resp.StatusCode, b)
	}
}

// TestRoundTripBasicAuth: a request's Basic Authorization is the login
// of a URL that names none, and never replaces the URL's own.
func TestRoundTripBasicAuth(t *testing.T) {
	var users []string
	cl, _ := rtClient(schemes.Retrieves, func(req *schemes.Request) (*schemes.Response, error) {
		g := req.URL.Generic()
		users = append(users, deref(g.User)+":"+deref(g.Password))
		return &schemes.Response{Body: body(""), Size: 0}, nil
	})
	hc := httpClient(cl, "rt")
	req, _ := http.NewRequest("GET", "rt://h/x", nil)
	req.SetBasicAuth("alice", "pw")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	req, _ = http.NewRequest("GET", "rt://bob:own@h/x", nil)
	req.SetBasicAuth("alice", "pw")
	if resp, err = hc.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if strings.Join(users, " ") != "alice:pw bob:own" {
		t.Errorf("logins %q", users)
	}
}

// TestRoundTripRefusesSessionsAndSending: a GET never sends mail nor
// starts a session.
func TestRoundTripRefusesSessionsAndSending(t *testing.T) {
	hc := httpClient(&Client{}, "mailto", "telnet")
	for _, u := range []string{"mailto:alice@example.org", "telnet://127.0.0.1:1/"} {
		if resp, b := roundTrip(t, hc, "GET", u); resp.StatusCode != 501 {
			t.Errorf("%s: %d %q", u, resp.StatusCode, b)
		}
	}
}

// TestRoundTripHTTP: http goes through the Client's http handler like
// any scheme, as RoundTripper documents: the bytes, and a server's 500
// told by its kind, 502.
func TestRoundTripHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			http.Error(w, "broken", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "over urlget's http")
	}))
	defer srv.Close()
	hc := httpClient(&Client{}, "http")
	if resp, b := roundTrip(t, hc, "GET", srv.URL+"/ok"); resp.StatusCode != 200 || b != "over urlget's http" {
		t.Errorf("%d %q", resp.StatusCode, b)
	}
	if resp, _ := roundTrip(t, hc, "GET", srv.URL+"/fail"); resp.StatusCode != http.StatusBadGateway {
		t.Errorf("a server's 500: %d", resp.StatusCode)
	}
}

// TestRoundTripCancelMidBody: closing the body, or canceling the
// request's context, mid-transfer stops it: the server's connection is
// closed and no goroutine is left behind.
func TestRoundTripCancelMidBody(t *testing.T) {
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	addr, closed := gopherServer(t, func(_ string, c net.Conn) {
		for {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
	hc := httpClient(&Client{}, "gopher")
	for _, how := range []string{"close", "cancel"} {
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", "gopher://"+addr+"/9/endless", nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 256<<10)); err != nil {
			t.Fatal(err)
		}
		if how == "cancel" {
			cancel()
			if _, err := io.Copy(io.Discard, resp.Body); err == nil {
				t.Errorf("cancel: the body read on to its end")
			}
		}
		resp.Body.Close()
		cancel()
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the server's connection is still open", how)
		}
		// The goroutines' exits have no event to wait on: polled, bounded.
		if !await.Poll(func() bool { return runtime.NumGoroutine() <= before }) {
			n := runtime.NumGoroutine()
			buf := make([]byte, 1<<16)
			t.Errorf("%s: %d goroutines before, %d after\n%s", how, before, n, buf[:runtime.Stack(buf, true)])
		}
	}
}

// TestRoundTripCloseUnblocksRead: Close from another goroutine ends a
// Read blocked on a silent server, as net/http's bodies do.
func TestRoundTripCloseUnblocksRead(t *testing.T) {
	addr, closed := gopherServer(t, func(_ string, c net.Conn) {
		c.Write(bytes.Repeat([]byte("x"), 64<<10)) // more than the handler sniffs
		io.Copy(io.Discard, c)                     // then silence, until the client goes
	})
	resp, err := httpClient(&Client{}, "gopher").Get("gopher://" + addr + "/9/silent")
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan error, 1)
	go readAllSilent(resp.Body, read)
	await.Parked(t, "fetch.readAllSilent(") // the Read is blocked: now Close
	resp.Body.Close()
	select {
	case err := <-read:
		if err == nil {
			t.Error("the read ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end the blocked Read")
	}
	<-closed
}

// readAllSilent reads r to its end and sends the error; a function of its
// own, so that await.Parked can tell when its Read is blocked.
func readAllSilent(r io.Reader, read chan<- error) {
	_, err := io.ReadAll(r)
	read <- err
}

func TestMediaType(t *testing.T) {
	for _, c := range []struct{ typ, name, want string }{
		{"text/gopher-menu", "x.bin", "text/gopher-menu"},
		{"", "a.html", "text/html; charset=utf-8"},
		{"", "noext", "application/octet-stream"},
	} {
		if got := MediaType(&schemes.Response{Type: c.typ, Name: c.name}); got != c.want {
			t.Errorf("%q %q: %q", c.typ, c.name, got)
		}
	}
}
