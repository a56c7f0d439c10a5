package http

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/integration/httpcapture"
	"github.com/urlget/urlget/schemes"
)

// TestSendAfterRedirects: the request that follows redirects of each
// status (Request.Redirects) is the one curl -L sends: 307 and 308 keep
// method and body; 301 and 302 turn a POST into a GET without its body
// unless --post30x keeps it, 303 any request but a kept POST; -X keeps
// its word once the body is gone; a redirect of no HTTP status drops
// the body. The rows are what curl 7.88 sent to the redirect's target.
func TestSendAfterRedirects(t *testing.T) {
	data := given("data", "a=1")
	post := func(more schemes.Options) schemes.Options {
		o := schemes.Options{"data": data}
		for k, v := range more {
			o[k] = v
		}
		return o
	}
	for _, tc := range []struct {
		opts      schemes.Options
		redirects []int
		method    string
		body      string
	}{
		{post(nil), []int{301}, "GET", ""},
		{post(nil), []int{302}, "GET", ""},
		{post(nil), []int{303}, "GET", ""},
		{post(nil), []int{307}, "POST", "a=1"},
		{post(nil), []int{308}, "POST", "a=1"},
		{post(nil), []int{307, 302, 307}, "GET", ""},
		{post(nil), []int{0}, "GET", ""},
		{post(schemes.Options{"post301": true}), []int{301}, "POST", "a=1"},
		{post(schemes.Options{"post302": true}), []int{302}, "POST", "a=1"},
		{post(schemes.Options{"post303": true}), []int{303}, "POST", "a=1"},
		{post(schemes.Options{"post302": true}), []int{301}, "GET", ""},
		{post(schemes.Options{"request": "POST"}), []int{302}, "POST", ""},
		{post(schemes.Options{"request": "PUT"}), []int{301}, "PUT", ""},
		{post(schemes.Options{"request": "PUT"}), []int{303}, "PUT", ""},
		{post(schemes.Options{"request": "PUT"}), []int{308}, "PUT", "a=1"},
		{post(schemes.Options{"request": "PUT", "post303": true}), []int{303}, "PUT", "a=1"},
		{schemes.Options{"request": "DELETE"}, []int{303}, "DELETE", ""},
		{schemes.Options{"form-data": given("form-data", "a=1")}, []int{302}, "GET", ""},
	} {
		h, err := sendHandler(t, tc.opts, "")
		if err != nil {
			t.Fatal(err)
		}
		srv := httpcapture.New(t, nil)
		req, tr := capReq(t, srv.URL+"/p")
		req.Redirects = tc.redirects
		resp, err := h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, resp)
		got := srv.Take()[0]
		if got.Err != nil {
			t.Fatalf("%s: %v", got, got.Err)
		}
		_, typed := got.Field("Content-Type")
		body := string(got.Body)
		if got.Method != tc.method || tc.body != "" && !strings.Contains(body, "a=1") || tc.body == "" && (body != "" || typed) {
			t.Errorf("%v after %v: %s with body %q (Content-Type sent: %v), want %s with %q\n%s",
				tc.opts, tc.redirects, got.Method, body, typed, tc.method, tc.body, tr)
		}
	}
}

// TestSendAfterRedirectNotes: -v says what a redirect did to the body,
// naming the option as the caller does.
func TestSendAfterRedirectNotes(t *testing.T) {
	h := &Handler{Body: BytesBody(FormType, []byte("a=1")), Method: "PUT",
		words: Declaration().ValuesOf(nil, func(o string) string { return "--" + o }).Words()}
	for status, want := range map[int]string{
		302: "the 302 redirect drops the body; the method stays PUT, which --request sets for every request, as curl's does",
		307: "the 307 redirect keeps the method and the body: sending them again",
	} {
		tr := &recTrace{}
		h.sendingFor(&schemes.Request{Redirects: []int{status}}, tr)
		if !tr.has("* " + want) {
			t.Errorf("%d: trace\n%s\nwant %q", status, tr, want)
		}
	}
}

// TestSendNotRetried: once a POST was written, a connection that breaks
// before the answer, or during it, is not retried (the server may have
// acted on it: curl's --retry does not retry such a failure either); a
// GET's is. A timeout stays retryable, as curl's.
func TestSendNotRetried(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer string
	}{
		{"no answer", ""},
		{"a cut body", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc"},
	} {
		srv := httpcapture.New(t, func(httpcapture.Request) httpcapture.Answer {
			return httpcapture.Answer{Raw: tc.answer, Close: true}
		})
		for _, h := range []*Handler{{}, {Body: BytesBody(FormType, []byte("a=1"))}} {
			req, _ := capReq(t, srv.URL+"/p")
			resp, err := h.Fetch(context.Background(), req)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			post := h.Body != nil
			if err == nil || schemes.IsRetryable(err) == post || post != strings.Contains(err.Error(), "not retried") {
				t.Errorf("%s, body %v: %v (retryable %v)", tc.name, post, err, schemes.IsRetryable(err))
			}
		}
	}
	timeout := &schemes.Error{Kind: schemes.KindTimeout, Retryable: true}
	if err := sentOnce(timeout, sending{method: "POST"}); !schemes.IsRetryable(err) {
		t.Errorf("a POST's timeout: %v, want it retryable", err)
	}
}

// TestSendOnKeptConnection: a POST on a kept connection that the
// server closes unanswered after reading it fails, not retried: the
// server may have acted on it.
func TestSendOnKeptConnection(t *testing.T) {
	var n atomic.Int32
	srv := httpcapture.New(t, func(r httpcapture.Request) httpcapture.Answer {
		if n.Add(1) == 2 {
			return httpcapture.Answer{Close: true} // the second request: closed unanswered
		}
		return httpcapture.OK(r)
	})
	h := &Handler{Body: BytesBody(FormType, []byte("a=1"))}
	t.Cleanup(h.CloseIdleConnections)
	first := sendOnce(t, h, srv)
	req, _ := capReq(t, srv.URL+"/p")
	_, err := h.Fetch(context.Background(), req)
	if err == nil || schemes.IsRetryable(err) || !strings.Contains(err.Error(), "not retried") {
		t.Errorf("the POST closed unanswered: %v", err)
	}
	if got := srv.Take(); len(got) != 1 || got[0].String() != first.String() {
		t.Errorf("sent %v, want the POST once more", got)
	}
}

// TestSendResumesNothing: a request with a body asks for no range, even
// with an Offset: the answer comes whole (Response.Offset 0), and -v
// says why.
func TestSendResumesNothing(t *testing.T) {
	srv := httpcapture.New(t, nil)
	h := &Handler{Body: BytesBody(FormType, []byte("a=1"))}
	req, tr := capReq(t, srv.URL+"/p")
	req.Offset = 2
	resp, err := h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp); resp.Offset != 0 {
		t.Errorf("Offset %d, want 0", resp.Offset)
	}
	got := srv.Take()[0]
	if _, ok := got.Field("Range"); ok || got.Method != "POST" {
		t.Errorf("sent %s", got)
	}
	if !tr.has("* not continuing the partial copy: the answer to a POST is retrieved whole") {
		t.Errorf("trace:\n%s", tr)
	}
}

// TestSendFileBodyReread: a file in a body is read at each request (a
// 307 sends it again), and one whose size changed fails the request,
// naming the file, not retryable.
func TestSendFileBodyReread(t *testing.T) {
	name := filepath.Join(t.TempDir(), "up.bin")
	if err := os.WriteFile(name, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	fields := []FormField{{Name: "f", File: name, Filename: "up.bin", Type: "application/octet-stream"}, {Name: "v", Value: []byte("x")}}
	multi, err := MultipartBody(fields)
	if err != nil {
		t.Fatal(err)
	}
	file, err := FileBody("application/octet-stream", name)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []*Body{multi, file} {
		srv := httpcapture.New(t, nil)
		h := &Handler{Body: b}
		t.Cleanup(h.CloseIdleConnections)
		first := sendOnce(t, h, srv)
		req, _ := capReq(t, srv.URL+"/p")
		req.Redirects = []int{307}
		resp, err := h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, resp)
		if again := srv.Take()[0]; string(again.Body) != string(first.Body) || int64(len(first.Body)) != b.Len() {
			t.Errorf("sent %q then %q, Len %d", first.Body, again.Body, b.Len())
		}
	}
	if err := os.WriteFile(name, []byte("01234"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httpcapture.New(t, nil)
	req, _ := capReq(t, srv.URL+"/p")
	_, err = (&Handler{Body: file}).Fetch(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "up.bin") || !strings.Contains(err.Error(), "size changed") || schemes.IsRetryable(err) {
		t.Errorf("a file that shrank: %v", err)
	}
}

// TestSendCapsAndPlan: a Handler that submits neither lists, crawls nor
// resumes; its plan shows the method, Content-Type and length (not the
// bytes); a method that is no token fails before anything is sent.
func TestSendCapsAndPlan(t *testing.T) {
	for _, h := range []*Handler{{Body: BytesBody(FormType, nil)}, {Method: "DELETE"}} {
		r := schemes.NewRegistry()
		for _, s := range Schemes(h) {
			r.Register(s) // panics on caps that contradict each other
		}
		if c := Schemes(h)[1].Caps; c.Has(schemes.Lists) || c.Has(schemes.Crawls) || c.Has(schemes.Pages) || c.Has(schemes.Resumes) || c.Has(schemes.Pipelines) || !c.Has(schemes.TLS|schemes.Stats) {
			t.Errorf("%+v: caps %v", h, c)
		}
	}
	if c := Schemes(&Handler{Method: "GET"})[0].Caps; c != caps|schemes.Pipelines {
		t.Errorf("-X GET: caps %v", c)
	}
	lreq, _ := capReq(t, "http://127.0.0.1:1/dir/")
	if _, err := (&Handler{Method: "POST"}).List(context.Background(), lreq); schemes.KindOf(err) != schemes.KindUnsupported {
		t.Errorf("List with -X POST: %v", err)
	}
	h := &Handler{Method: "PUT", Body: BytesBody(FormType, []byte("secret=1"))}
	req, _ := capReq(t, "http://127.0.0.1/p")
	plan, err := h.Explain(req)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	for _, want := range []string{"PUT /p HTTP/1.1", "Content-Type: " + FormType, "Content-Length: 8"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "secret") {
		t.Errorf("the plan shows the body:\n%s", text)
	}
	bad := &Handler{Method: "GET /x HTTP/1.1\r\nHost: evil"}
	if _, err := bad.Fetch(context.Background(), req); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("a method with CR LF: %v", err)
	}
	if _, err := bad.Explain(req); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("a method with CR LF, explained: %v", err)
	}
}
