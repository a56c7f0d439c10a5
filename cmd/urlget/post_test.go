package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/integration/httpcapture"
)

// TestPostFlags: -d and its variants join in the order typed, whichever
// flag gave them; -F, --form-string and -X reach the server as curl
// sends them (the http handler's tests hold every form).
func TestPostFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(file, []byte("l1\r\nl2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httpcapture.New(t, nil)
	for _, tc := range []struct {
		args                []string
		method, ctype, body string
	}{
		{[]string{"-d", "a", "--data-urlencode", "b=c d", "--data-binary", "@" + file, "-d", "@" + file, "--data-raw", "@x", "--data-ascii", "e"},
			"POST", "application/x-www-form-urlencoded", "a&b=c+d&l1\r\nl2\n&l1l2&@x&e"},
		{[]string{"-X", "PUT", "--data", "x=1"}, "PUT", "application/x-www-form-urlencoded", "x=1"},
		{[]string{"--request", "DELETE"}, "DELETE", "", ""},
		{[]string{"-F", "f=@" + file, "--form-string", "s=@lit", "--form-data", "v=1"}, "POST", "multipart/form-data; boundary=BOUNDARY",
			"--BOUNDARY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.txt\"\r\nContent-Type: text/plain\r\n\r\nl1\r\nl2\n\r\n" +
				"--BOUNDARY\r\nContent-Disposition: form-data; name=\"s\"\r\n\r\n@lit\r\n" +
				"--BOUNDARY\r\nContent-Disposition: form-data; name=\"v\"\r\n\r\n1\r\n--BOUNDARY--\r\n"},
		{[]string{"-d", "a=1", "-H", "Content-Type: application/json"}, "POST", "application/json", "a=1"},
		{[]string{"-d", "a=1", "-H", "Content-Type:"}, "POST", "", "a=1"},
	} {
		stdout, stderr, code := urlget(t, "", append(tc.args, "-sS", srv.URL+"/p")...)
		got := srv.Take()
		if code != 0 || stdout != "ok\n" || len(got) != 1 {
			t.Errorf("%q: exit %d %q %q, %d requests", tc.args, code, stdout, stderr, len(got))
			continue
		}
		n := got[0].Normalized()
		ct, _ := n.Field("Content-Type")
		if n.Method != tc.method || ct != tc.ctype || string(n.Body) != tc.body {
			t.Errorf("%q: sent\n%s\nwant %s, Content-Type %q, body %q", tc.args, n, tc.method, tc.ctype, tc.body)
		}
	}
}

// TestPostRedirects: urlget follows redirects as curl -L does with a
// body: a 302 makes it a GET without the body, a 307 sends it again,
// to another origin too (here another port), where -u's login does not
// go; -X POST keeps its word after a 303, without the body; --post302
// keeps the POST.
func TestPostRedirects(t *testing.T) {
	to := httpcapture.New(t, nil)
	from := httpcapture.New(t, func(r httpcapture.Request) httpcapture.Answer {
		code := 0
		for _, c := range []string{"301", "302", "303", "307", "308"} {
			if strings.HasPrefix(r.Target, "/r"+c) {
				code = int(c[2]-'0') + 300
			}
		}
		return httpcapture.Redirect(code, to.URL+"/t")
	})
	for _, tc := range []struct {
		args         []string
		method, body string
	}{
		{[]string{"-d", "a=1", from.URL + "/r302"}, "GET", ""},
		{[]string{"-d", "a=1", from.URL + "/r303"}, "GET", ""},
		{[]string{"-d", "a=1", "-u", "me:pw", from.URL + "/r307"}, "POST", "a=1"},
		{[]string{"-F", "a=1", from.URL + "/r308"}, "POST", "--BOUNDARY\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--BOUNDARY--\r\n"},
		{[]string{"-X", "POST", "-d", "a=1", from.URL + "/r303"}, "POST", ""},
		{[]string{"--post302", "-d", "a=1", from.URL + "/r302"}, "POST", "a=1"},
		{[]string{"--post302", "-d", "a=1", from.URL + "/r301"}, "GET", ""},
	} {
		_, stderr, code := urlget(t, "", append(tc.args, "-sS")...)
		first, got := from.Take(), to.Take()
		if code != 0 || len(first) != 1 || len(got) != 1 {
			t.Errorf("%q: exit %d %s; %d and %d requests", tc.args, code, stderr, len(first), len(got))
			continue
		}
		n := got[0].Normalized()
		if n.Method != tc.method || string(n.Body) != tc.body {
			t.Errorf("%q: after the redirect\n%s\nwant %s with %q", tc.args, n, tc.method, tc.body)
		}
		if _, auth := got[0].Field("Authorization"); auth {
			t.Errorf("%q: the login went to another origin:\n%s", tc.args, got[0])
		}
		if _, ct := got[0].Field("Content-Type"); ct != (tc.body != "") {
			t.Errorf("%q: Content-Type sent %v, with a body %q", tc.args, ct, tc.body)
		}
	}
}

// TestPostRetry: --retry sends a POST again after a 503 (curl retries
// it too), but not after a connection closed once the POST was sent:
// the server may have acted on it. Each try sends the whole body.
func TestPostRetry(t *testing.T) {
	var n atomic.Int32
	srv := httpcapture.New(t, func(r httpcapture.Request) httpcapture.Answer {
		switch {
		case r.Target == "/busy" && n.Add(1) == 1:
			return httpcapture.Answer{Raw: "HTTP/1.1 503 Busy\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n"}
		case r.Target == "/cut":
			return httpcapture.Answer{Close: true}
		}
		return httpcapture.OK(r)
	})
	_, stderr, code := urlget(t, "", "-sS", "--retry", "2", "--retry-delay", "0.001", "-d", "a=1", srv.URL+"/busy")
	got := srv.Take()
	if code != 0 || len(got) != 2 || string(got[0].Body) != "a=1" || string(got[1].Body) != "a=1" {
		t.Errorf("after a 503: exit %d %s; sent %v", code, stderr, got)
	}
	_, stderr, code = urlget(t, "", "-sS", "--retry", "2", "--retry-delay", "0.001", "-d", "a=1", srv.URL+"/cut")
	if got := srv.Take(); code != 5 || len(got) != 1 || !strings.Contains(stderr, "not retried: the server may have acted on the POST") {
		t.Errorf("after a connection closed: exit %d %q; %d requests", code, stderr, len(got))
	}
}

// TestPostRefused: the flags that submit go only to URLs named on a
// retrieval's command line: mirror, serve and ls refuse them, as -I
// refuses a body, and one kind of body is given at a time. curl's
// --form is gopher's +ASK answers here, and its error says so.
func TestPostRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mirror", "-d", "x", "http://127.0.0.1:1/", dir}, "-d is not a mirror flag"},
		{[]string{"mirror", "--data-urlencode", "x", "http://127.0.0.1:1/", dir}, "--data-urlencode is not a mirror flag"},
		{[]string{"serve", "-X", "POST"}, "-X is not a serve flag"},
		{[]string{"ls", "-F", "a=1", "http://127.0.0.1:1/"}, "-F is not an ls flag"},
		{[]string{"-I", "-d", "x", "http://127.0.0.1:1/"}, "sends HEAD"},
		{[]string{"-d", "x", "-F", "a=1", "http://127.0.0.1:1/"}, "-d and -F"},
		{[]string{"-X", "GET / HTTP/1.0", "http://127.0.0.1:1/"}, "not an HTTP method"},
		{[]string{"-d", "x", "ftp://127.0.0.1:1/f"}, "-d makes HTTP requests"},
		{[]string{"--form", "a=1", "http://127.0.0.1:1/"}, "curl's --form, an HTTP multipart form, is -F or --form-data here"},
	} {
		_, stderr, code := urlget(t, "", tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "curl flag urlget does not have") {
			t.Errorf("%q: exit %d %q, want 2 with %q", tc.args, code, stderr, tc.want)
		}
	}
	stdout, _, code := urlget(t, "", "--explain", "-X", "PATCH", "-d", "a=1", "http://127.0.0.1:1/p")
	if code != 0 || !strings.Contains(stdout, "PATCH /p HTTP/1.1") || !strings.Contains(stdout, "Content-Length: 3") {
		t.Errorf("--explain: exit %d\n%s", code, stdout)
	}
}
