package http

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/httpcapture"
	"github.com/urlget/urlget/schemes"
)

// given is a Sequence option's values, as pairs of spelling and value.
func given(pairs ...string) []schemes.Given {
	var g []schemes.Given
	for i := 0; i+1 < len(pairs); i += 2 {
		g = append(g, schemes.Given{As: pairs[i], Value: pairs[i+1]})
	}
	return g
}

// sendHandler is the Handler the declaration makes of opts, @- reading
// stdin.
func sendHandler(t *testing.T, opts schemes.Options, stdin string) (*Handler, error) {
	t.Helper()
	h, err := newHandler(Declaration().ValuesOf(opts, nil), strings.NewReader(stdin))
	if h != nil {
		t.Cleanup(h.CloseIdleConnections)
	}
	return h, err
}

// capReq is a request for rawURL, dialed by the test dialer.
func capReq(t *testing.T, rawURL string) (*schemes.Request, *recTrace) {
	t.Helper()
	loc, err := parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	tr := &recTrace{}
	return &schemes.Request{URL: loc, Dialer: &testDialer{}, Trace: tr}, tr
}

// sendOnce fetches srv's /p with h and returns the request srv got.
func sendOnce(t *testing.T, h *Handler, srv *httpcapture.Server) httpcapture.Request {
	t.Helper()
	req, _ := capReq(t, srv.URL+"/p")
	resp, err := h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp)
	got := srv.Take()
	if len(got) != 1 || got[0].Err != nil {
		t.Fatalf("%d requests, want 1 whole: %v", len(got), got)
	}
	return got[0]
}

// sendFiles are the files the table's values name, in a directory of
// their own (the test's working directory while it runs).
var sendFiles = map[string]string{
	"text.txt":  "line1\r\nline2\n",
	"u.txt":     "a b&c",
	"nul.dat":   "a\x00b\r\n",
	"noext":     "x",
	"img.PNG":   "y",
	"se;mi.txt": "s",
}

// part is one multipart part as curl lays it out, with disposition the
// Content-Disposition's parameters.
func part(disposition, typ, content string) string {
	p := "--BOUNDARY\r\nContent-Disposition: form-data" + disposition + "\r\n"
	if typ != "" {
		p += "Content-Type: " + typ + "\r\n"
	}
	return p + "\r\n" + content + "\r\n"
}

const lastPart = "--BOUNDARY--\r\n"

// TestSendForms: each way curl's -X, -d and -F make a request, as the
// server receives it: the method, Content-Type and Content-Length, and
// the body byte for byte (a multipart boundary read as BOUNDARY). The
// bodies are those curl 7.88 sent for the same arguments (its boundary
// has 16 random characters to urlget's 22, so its Content-Length is
// shorter by 6 a boundary).
func TestSendForms(t *testing.T) {
	dir := t.TempDir()
	for name, data := range sendFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	const form = FormType
	const multi = "multipart/form-data; boundary=BOUNDARY"
	for _, tc := range []struct {
		name   string
		opts   schemes.Options
		stdin  string
		method string
		ctype  string // "" for no Content-Type field
		body   string
	}{
		{"-d joined with &", schemes.Options{"data": given("data", "a=1", "data", "b=2")}, "", "POST", form, "a=1&b=2"},
		{"-d empty", schemes.Options{"data": given("data", "")}, "", "POST", form, ""},
		{"--data-urlencode forms", schemes.Options{"data": given("data-urlencode", "q=hello world/&x", "data-urlencode", "=a b",
			"data-urlencode", "plain+&", "data-urlencode", "n@u.txt", "data-urlencode", "@u.txt")},
			"", "POST", form, "q=hello+world%2F%26x&a+b&plain%2B%26&n=a+b%26c&a+b%26c"},
		{"the variants in the order given", schemes.Options{"data": given("data", "@text.txt", "data-binary", "@text.txt",
			"data-raw", "@text.txt", "data-ascii", "@text.txt")},
			"", "POST", form, "line1line2&line1\r\nline2\n&@text.txt&line1line2"},
		{"-d @- drops CR and LF", schemes.Options{"data": given("data", "@-")}, "x=1\r\ny=2\n", "POST", form, "x=1y=2"},
		{"--data-binary @- keeps them", schemes.Options{"data": given("data-binary", "@-")}, "x=1\r\ny=2\n", "POST", form, "x=1\r\ny=2\n"},
		{"--data-urlencode name@-", schemes.Options{"data": given("data-urlencode", "t@-")}, "a\nb", "POST", form, "t=a%0Ab"},
		{"-d @file stops at NUL", schemes.Options{"data": given("data", "@nul.dat")}, "", "POST", form, "a"},
		{"-X PUT -d", schemes.Options{"data": given("data", "a"), "request": "PUT"}, "", "PUT", form, "a"},
		{"-X DELETE", schemes.Options{"request": "DELETE"}, "", "DELETE", "", ""},
		{"-X POST", schemes.Options{"request": "POST"}, "", "POST", "", ""},
		{"-F values and files", schemes.Options{"form-data": given("form-data", "a=1", "form-data", "f=@text.txt",
			"form-data", "g=@u.txt;type=text/x-foo;filename=zz.bin", "form-data", "h=<u.txt", "form-data", `q="x;y"`,
			"form-string", "s=@lit")}, "", "POST", multi,
			part(`; name="a"`, "", "1") + part(`; name="f"; filename="text.txt"`, "text/plain", "line1\r\nline2\n") +
				part(`; name="g"; filename="zz.bin"`, "text/x-foo", "a b&c") + part(`; name="h"`, "", "a b&c") +
				part(`; name="q"`, "", "x;y") + part(`; name="s"`, "", "@lit") + lastPart},
		{"-F types", schemes.Options{"form-data": given("form-data", "a=@noext", "form-data", "b=@u.txt;filename=zz.png",
			"form-data", "c=val;type=text/x-v", "form-data", "d=@img.PNG", "form-data", `e=@"se;mi.txt";type=a/b`,
			"form-data", "g=<u.txt;type=t/t", "form-data", "t=x;type=text/plain; charset=utf-8", "form-data", "v=x;filename=v.txt")},
			"", "POST", multi,
			part(`; name="a"; filename="noext"`, "application/octet-stream", "x") +
				part(`; name="b"; filename="zz.png"`, "image/png", "a b&c") + part(`; name="c"`, "text/x-v", "val") +
				part(`; name="d"; filename="img.PNG"`, "image/png", "y") + part(`; name="e"; filename="se;mi.txt"`, "a/b", "s") +
				part(`; name="g"`, "t/t", "a b&c") + part(`; name="t"`, "text/plain; charset=utf-8", "x") +
				part(`; name="v"; filename="v.txt"`, "text/plain", "x") + lastPart},
		{"-F @-", schemes.Options{"form-data": given("form-data", "f=@-")}, "hi\n", "POST", multi,
			part(`; name="f"; filename="-"`, "", "hi\n") + lastPart},
		{"-F <-", schemes.Options{"form-data": given("form-data", "t=<-")}, "hi\n", "POST", multi,
			part(`; name="t"`, "", "hi\n") + lastPart},
		{"-F escapes", schemes.Options{"form-data": given("form-data", `na"me=1`, "form-string", "a\r\nb=2",
			"form-data", `f=@text.txt;filename=a"b\r.txt`, "form-data", `w=  x y  `, "form-data", `z=" x \" \\ "`)}, "", "POST", multi,
			part(`; name="na%22me"`, "", "1") + part(`; name="a%0D%0Ab"`, "", "2") +
				part(`; name="f"; filename="a%22b\r.txt"`, "text/plain", "line1\r\nline2\n") +
				part(`; name="w"`, "", "x y") + part(`; name="z"`, "", ` x " \ `) + lastPart},
		{"-X PATCH -F", schemes.Options{"form-data": given("form-data", "a=1"), "request": "PATCH"}, "", "PATCH", multi,
			part(`; name="a"`, "", "1") + lastPart},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := sendHandler(t, tc.opts, tc.stdin)
			if err != nil {
				t.Fatal(err)
			}
			got := sendOnce(t, h, httpcapture.New(t, nil))
			n := got.Normalized()
			if got.Method != tc.method || got.Target != "/p" {
				t.Errorf("request line %q, want %s /p", got.Line, tc.method)
			}
			if ct, ok := n.Field("Content-Type"); ct != tc.ctype || ok != (tc.ctype != "") {
				t.Errorf("Content-Type %q (sent %v), want %q", ct, ok, tc.ctype)
			}
			if string(n.Body) != tc.body {
				t.Errorf("body\n%q\nwant\n%q", n.Body, tc.body)
			}
			cl, ok := got.Field("Content-Length")
			switch {
			case tc.method == "DELETE" && tc.body == "":
				if ok {
					t.Errorf("Content-Length %s for a DELETE without a body", cl)
				}
			case cl != strconv.Itoa(len(got.Body)):
				t.Errorf("Content-Length %q for a body of %d bytes", cl, len(got.Body))
			}
			if _, ok := got.Field("Idempotency-Key"); ok {
				t.Errorf("an Idempotency-Key was sent: %v", got.Fields)
			}
		})
	}
}

// TestSendOptionErrors: what curl refuses or warns about, and what
// urlget does not make, is a usage error naming the option and value.
func TestSendOptionErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("f", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts schemes.Options
		want string
	}{
		{schemes.Options{"data": given("data", "a"), "form-data": given("form-data", "b=1")}, "one body"},
		{schemes.Options{"data": given("data", "a"), "head": true}, "HEAD"},
		{schemes.Options{"request": "PUT", "head": true}, "HEAD"},
		{schemes.Options{"form-data": given("form-string", "b=1"), "head": true}, "HEAD"},
		{schemes.Options{"request": "GET / HTTP/1.1\r\nX:"}, "not an HTTP method"},
		{schemes.Options{"request": "G T"}, "not an HTTP method"},
		{schemes.Options{"request": ""}, "not an HTTP method"},
		{schemes.Options{"data": given("data", "@missing")}, "missing"},
		{schemes.Options{"data": given("data-urlencode", "n@missing")}, "missing"},
		{schemes.Options{"data": given("data-binary", "@missing")}, "missing"},
		{schemes.Options{"form-data": given("form-data", "novalue")}, "want NAME=CONTENT"},
		{schemes.Options{"form-data": given("form-data", "a=1;foo=bar")}, "unknown ;foo=bar"},
		{schemes.Options{"form-data": given("form-data", "a=@f,f")}, "several files"},
		{schemes.Options{"form-data": given("form-data", "a=(x")}, "nested"},
		{schemes.Options{"form-data": given("form-data", "a=@missing")}, "missing"},
		{schemes.Options{"form-data": given("form-data", "a=<missing")}, "missing"},
		{schemes.Options{"form-data": given("form-data", "a=<f;filename=x")}, "filename"},
		{schemes.Options{"form-data": given("form-data", "a=1;headers=X: y")}, "headers"},
		{schemes.Options{"form-data": given("form-data", "a=1;encoder=base64")}, "encoder"},
		{schemes.Options{"form-data": given("form-data", `a="x" y`)}, "after the quoted"},
		{schemes.Options{"form-data": given("form-data", "a=1;type=a/b c")}, "unexpected"},
	} {
		_, err := sendHandler(t, tc.opts, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) || schemes.KindOf(err) != schemes.KindUsage {
			t.Errorf("%v: %v, want a usage error with %q", tc.opts, err, tc.want)
		}
	}
}
