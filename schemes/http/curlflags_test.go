package http

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/urlget/urlget/schemes"
)

func TestAddHeader(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want http.Header
		err  string
	}{
		{args: []string{"X-A: 1", "x-a: 2"}, want: http.Header{"X-A": {"1", "2"}}},
		{args: []string{"User-Agent:"}, want: http.Header{"User-Agent": {}}},
		{args: []string{"Accept;"}, want: http.Header{"Accept": {""}}},
		{args: []string{"X-Sp:   v w  "}, want: http.Header{"X-Sp": {"v w"}}},
		{args: []string{"X: a\r\nEvil: 1"}, err: "control character"},
		{args: []string{"X: a\nb"}, err: "control character"},
		{args: []string{"X: a\x00"}, err: "control character"},
		{args: []string{"Bad Name: v"}, err: "not a header field name"},
		{args: []string{"X\r\nY: v"}, err: "not a header field name"},
		{args: []string{"novalue"}, err: "want \"Name: value\""},
		{args: []string{"Content-Length: 5"}, err: "urlget sets it from the body"},
		{args: []string{"transfer-encoding: chunked"}, err: "urlget sets it from the body"},
	} {
		h := http.Header{}
		var err error
		for _, a := range tc.args {
			if err = AddHeader(h, a); err != nil {
				break
			}
		}
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want an error with %q", tc.args, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.err == "" && !equalHeader(h, tc.want):
			t.Errorf("%q: %v, want %v", tc.args, h, tc.want)
		}
	}
}

func equalHeader(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || strings.Join(v, "\x00") != strings.Join(w, "\x00") || (v == nil) != (w == nil) {
			return false
		}
	}
	return true
}

// TestRequestFields: -A, -e and -H reach the server; "Name:" removes
// urlget's own field; Authorization, Cookie and Host go only to the
// origin the caller named (Request.OtherOrigin clear), as curl sends them.
func TestRequestFields(t *testing.T) {
	got := make(chan http.Header, 1)
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Clone()
		h.Set("X-Host", r.Host)
		got <- h
	}, false)
	hdr := http.Header{}
	for _, a := range []string{"X-Custom: one", "Authorization: Bearer tok", "Cookie: s=1", "Host: named.example", "Accept;"} {
		if err := AddHeader(hdr, a); err != nil {
			t.Fatal(err)
		}
	}
	e.h.UserAgent, e.h.Referer, e.h.Header = "agent/1", "http://from.example/", hdr
	for _, other := range []bool{false, true} {
		req, tr := e.req("/f")
		req.OtherOrigin = other
		resp, err := e.h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, resp)
		h := <-got
		if h.Get("User-Agent") != "agent/1" || h.Get("Referer") != "http://from.example/" || h.Get("X-Custom") != "one" {
			t.Errorf("other origin %v: %v", other, h)
		}
		if v, ok := h["Accept"]; !ok || v[0] != "" {
			t.Errorf("other origin %v: Accept %q, want it sent empty", other, v)
		}
		origin := h.Get("Authorization") == "Bearer tok" && h.Get("Cookie") == "s=1" && h.Get("X-Host") == "named.example"
		none := h.Get("Authorization") == "" && h.Get("Cookie") == "" && h.Get("X-Host") == strings.TrimPrefix(e.srv.URL, "http://")
		if other && !none || !other && !origin {
			t.Errorf("other origin %v: Authorization %q Cookie %q Host %q", other, h.Get("Authorization"), h.Get("Cookie"), h.Get("X-Host"))
		}
		if strings.Contains(tr.String(), "tok") || strings.Contains(tr.String(), "s=1") {
			t.Errorf("the trace shows a secret:\n%s", tr)
		}
	}

	// "User-Agent:" sends none at all (net/http would put its own).
	e.h.Header = http.Header{"User-Agent": {}}
	resp, _, err := e.fetch("/f")
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp)
	if h := <-got; len(h["User-Agent"]) != 0 {
		t.Errorf("User-Agent removed, yet sent: %q", h["User-Agent"])
	}
}

func coded(t *testing.T, coding string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&b)
	case "deflate": // zlib, as RFC 9110 says
		w = zlib.NewWriter(&b)
	case "rawdeflate":
		w, _ = flate.NewWriter(&b, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&b)
	case "zstd":
		w, _ = zstd.NewWriter(&b)
	default:
		t.Fatal(coding)
	}
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// TestDecode: with Decode each coding is asked for and decoded, and the
// Response's size and digest, which describe the coded bytes, are
// dropped; without it the body is as served.
func TestDecode(t *testing.T) {
	data := bytes.Repeat([]byte("urlget decodes --compressed bodies\n"), 500)
	for _, coding := range []string{"gzip", "deflate", "rawdeflate", "br", "zstd"} {
		t.Run(coding, func(t *testing.T) {
			body := coded(t, coding, data)
			var asked string
			e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
				asked = r.Header.Get("Accept-Encoding")
				w.Header().Set("Content-Encoding", strings.TrimPrefix(coding, "raw"))
				w.Header().Set("Repr-Digest", "sha-256=:"+strings.Repeat("A", 43)+"=:")
				w.Write(body)
			}, false)
			e.h.Decode = true
			resp, _, err := e.fetch("/f")
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(t, resp); got != string(data) {
				t.Errorf("decoded %d bytes, want %d", len(got), len(data))
			}
			if asked != "gzip, deflate, br, zstd" || resp.Size != -1 || resp.SHA256 != "" {
				t.Errorf("Accept-Encoding %q, Size %d, SHA256 %q", asked, resp.Size, resp.SHA256)
			}
			e.h.Decode = false
			resp, _, err = e.fetch("/f")
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(t, resp); got != string(body) || asked != "" || resp.Size != int64(len(body)) {
				t.Errorf("without Decode: %d bytes (want %d as served), Accept-Encoding %q", len(got), len(body), asked)
			}
		})
	}
}

// TestDecodeFailures: a coding urlget cannot decode, or bytes that do not
// decode, fail as protocol errors naming the Decode option as the caller
// does (the library's words for a Handler built in code).
func TestDecodeFailures(t *testing.T) {
	callerWords := Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()
	for _, tc := range []struct {
		coding, body, want string
		words              schemes.Words
	}{
		{"compress", "x", `Content-Encoding "compress", which urlget cannot decode (option compressed decodes gzip`, schemes.Words{}},
		{"gzip", "not gzip at all", "cannot decode the body (option compressed): ", schemes.Words{}},
		{"compress", "x", `which urlget cannot decode (<compressed> decodes gzip`, callerWords},
		{"gzip", "not gzip at all", "cannot decode the body (<compressed>): ", callerWords},
	} {
		e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", tc.coding)
			io.WriteString(w, tc.body)
		}, false)
		e.h.Decode, e.h.words = true, tc.words
		resp, _, err := e.fetch("/f")
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if schemes.KindOf(err) != schemes.KindProtocol || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a protocol error with %q", tc.coding, err, tc.want)
		}
	}
}

// TestDecodeResume: a resume asks for no coding (its range is of the
// uncoded bytes the partial copy holds), and a server that codes its 206
// anyway is refused rather than appended.
func TestDecodeResume(t *testing.T) {
	var asked []string
	codeIt := false
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Header.Get("Accept-Encoding"))
		if codeIt {
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.Header().Set("Content-Range", "bytes 3-5/6")
		w.WriteHeader(http.StatusPartialContent)
		io.WriteString(w, "def")
	}, false)
	e.h.Decode = true
	for _, c := range []bool{false, true} {
		codeIt = c
		req, _ := e.req("/f")
		req.Offset = 3
		resp, err := e.h.Fetch(context.Background(), req)
		switch {
		case !c && err != nil:
			t.Fatal(err)
		case !c:
			if got := readAll(t, resp); got != "def" || resp.Offset != 3 {
				t.Errorf("resumed %q at %d", got, resp.Offset)
			}
		case err == nil || !strings.Contains(err.Error(), "coded bytes cannot continue decoded ones"):
			t.Errorf("a coded 206: %v, want it refused", err)
		}
	}
	if asked[0] != "" || asked[1] != "" {
		t.Errorf("a resume asked for Accept-Encoding %q", asked)
	}
}

// TestFailWithBody: the error page is the Body, ending with the status
// error (not retried); without FailWithBody, or when resuming, the status
// error comes at once.
func TestFailWithBody(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "busy page")
	}, false)
	e.h.FailWithBody = true
	resp, _, err := e.fetch("/f")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	var se *schemes.Error
	if string(b) != "busy page" || !errors.As(err, &se) || se.Code != 503 || se.Retryable || !errors.Is(err, ErrBodyWritten) {
		t.Errorf("page %q, end %#v", b, err)
	}
	req, _ := e.req("/f")
	req.Offset = 3
	if _, err := e.h.Fetch(context.Background(), req); err == nil || errors.Is(err, ErrBodyWritten) {
		t.Errorf("resuming: %v, want the status error itself", err)
	}
	e.h.FailWithBody = false
	if _, _, err := e.fetch("/f"); schemes.KindOf(err) != schemes.KindBusy {
		t.Errorf("without FailWithBody: %v", err)
	}
}

// TestExplainFields: --explain shows the fields -A, -e, -H and
// --compressed add, with Authorization and Cookie values as ****, and
// none of what is kept for the origin in a request that left it.
func TestExplainFields(t *testing.T) {
	hdr := http.Header{}
	for _, a := range []string{"Cookie: s=1", "Authorization: Bearer tok", "X-A: 1", "User-Agent:"} {
		if err := AddHeader(hdr, a); err != nil {
			t.Fatal(err)
		}
	}
	h := &Handler{Referer: "http://r/", Header: hdr, Decode: true}
	loc, err := parse("http://127.0.0.1/x")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := h.Explain(&schemes.Request{URL: loc})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"connect 127.0.0.1:80", "GET /x HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip, deflate, br, zstd",
		"Authorization: ****", "Cookie: ****", "Referer: http://r/", "X-A: 1"}
	if strings.Join(plan, "\n") != strings.Join(want, "\n") {
		t.Errorf("plan:\n%s\nwant:\n%s", strings.Join(plan, "\n"), strings.Join(want, "\n"))
	}
	plan, _ = h.Explain(&schemes.Request{URL: loc, OtherOrigin: true})
	if s := strings.Join(plan, "\n"); strings.Contains(s, "Cookie") || strings.Contains(s, "Authorization") {
		t.Errorf("another origin's plan:\n%s", s)
	}
}
