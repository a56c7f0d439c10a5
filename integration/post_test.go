//go:build integration

package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/httpcapture"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// The tests here send forms and API requests with curl's flags (-d and
// its variants, -F, -X, --post30x) from curl and from urlget to the same
// server, and compare what the server received from each.

// bothIn runs curl, then urlget, with args and stdin.
func bothIn(t *testing.T, stdin string, args ...string) (curl, urlget twin) {
	t.Helper()
	return bothAt(t, nil, stdin, args...)
}

// postFiles are the files the cases name, by absolute path (each run has
// a directory of its own).
func postFiles(t *testing.T) func(string) string {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"text.txt":  "line1\r\nline2\n",
		"u.txt":     "a b&c",
		"noext":     "x",
		"img.PNG":   "y",
		"se;mi.txt": "s",
		"req.json":  `{"a": [1, 2], "b": "c d"}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return func(name string) string { return filepath.Join(dir, name) }
}

// compared is what two clients that send the same request have in
// common: the request line, the fields but User-Agent and Accept (curl
// sends "*/*", urlget none) and Content-Length (a multipart boundary is
// 16 random characters in curl 7, 22 in curl 8 and urlget: each is
// checked against its own body), sorted, and the body, with the
// boundary as BOUNDARY.
func compared(t *testing.T, who string, r httpcapture.Request) string {
	t.Helper()
	if r.Err != nil {
		t.Errorf("%s sent a request cut short: %v\n%s", who, r.Err, r)
	}
	cl, ok := r.Field("Content-Length")
	if ok && cl != strconv.Itoa(len(r.Body)) || !ok && len(r.Body) > 0 {
		t.Errorf("%s: Content-Length %q (sent %v) for a body of %d bytes", who, cl, ok, len(r.Body))
	}
	return r.Normalized("User-Agent", "Accept", "Content-Length").String()
}

// sameRequests fails unless curl's requests and urlget's, as each
// server got them, are the same (compared).
func sameRequests(t *testing.T, what string, c, o []httpcapture.Request) {
	t.Helper()
	if len(c) != len(o) {
		t.Errorf("%s: curl sent %d requests, urlget %d\ncurl: %v\nurlget: %v", what, len(c), len(o), c, o)
		return
	}
	for i := range c {
		if cs, os := compared(t, "curl", c[i]), compared(t, "urlget", o[i]); cs != os {
			t.Errorf("%s: request %d\ncurl:\n%s\nurlget:\n%s", what, i+1, cs, os)
		}
	}
}

// TestCurlPostForms: for each form of -d, --data-urlencode, -F and -X,
// the server receives from urlget the request it receives from curl, the
// body byte for byte.
func TestCurlPostForms(t *testing.T) {
	f := postFiles(t)
	srv := httpcapture.New(t, nil)
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"-d twice", "", []string{"-d", "a=1", "-d", "b=2"}},
		{"--data-urlencode forms", "", []string{"--data-urlencode", "q=hello world/&x", "--data-urlencode", "=a b",
			"--data-urlencode", "plain+&~*", "--data-urlencode", "n@" + f("u.txt"), "--data-urlencode", "@" + f("u.txt")}},
		{"-d, --data-binary, --data-raw of a file", "", []string{"-d", "@" + f("text.txt"), "--data-binary", "@" + f("text.txt"),
			"--data-raw", "@" + f("text.txt"), "--data-ascii", "x"}},
		{"-d @-", "a=1\r\nb=2\n", []string{"-d", "@-"}},
		{"--data-binary @-", "a=1\r\nb=2\n", []string{"--data-binary", "@-"}},
		{"--data-urlencode name@-", "é &\n", []string{"--data-urlencode", "t@-"}},
		{"-d empty", "", []string{"-d", ""}},
		{"JSON", "", []string{"-H", "Content-Type: application/json", "--data-binary", "@" + f("req.json")}},
		{"-X PUT -d", "", []string{"-X", "PUT", "-d", "x=1"}},
		{"-X DELETE", "", []string{"-X", "DELETE"}},
		{"-X PATCH -F", "", []string{"-X", "PATCH", "-F", "a=1"}},
		{"-F values and files", "", []string{"-F", "a=1", "-F", "f=@" + f("text.txt"), "-F", "g=@" + f("u.txt") + ";type=text/x-foo;filename=zz.bin",
			"-F", "h=<" + f("u.txt"), "-F", `q="x;y"`, "--form-string", "s=@lit", "-F", "w=  x y  "}},
		{"-F types", "", []string{"-F", "a=@" + f("noext"), "-F", "b=@" + f("u.txt") + ";filename=zz.png", "-F", "c=val;type=text/x-v",
			"-F", "d=@" + f("img.PNG"), "-F", `e=@"` + f("se;mi.txt") + `";type=a/b`, "-F", "g=<" + f("u.txt") + ";type=t/t",
			"-F", "t=x;type=text/plain; charset=utf-8", "-F", "v=x;filename=v.txt"}},
		{"-F @-", "hi\n", []string{"-F", "f=@-"}},
		{"-F escapes", "", []string{"-F", `na"me=1`, "-F", "f=@" + f("text.txt") + `;filename=a"b.txt`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-sS", "-o", "out"}, append(tc.args, srv.URL+"/p")...)
			c, o := bothIn(t, tc.stdin, args...)
			if c.code != 0 || o.code != 0 {
				t.Fatalf("curl exit %d %s; urlget exit %d %s", c.code, c.stderr, o.code, o.stderr)
			}
			got := srv.Take()
			if len(got) != 2 {
				t.Fatalf("%d requests, want curl's and urlget's", len(got))
			}
			sameRequests(t, tc.name, got[:1], got[1:])
			t.Logf("curl and urlget sent:\n%s", compared(t, "urlget", got[1]))
		})
	}
}

// TestCurlPostRedirects: through a redirect of each status to another
// port (another origin), urlget sends what curl -L sends after it: the
// POST again with its body (307, 308, --post30x), a GET without it (301,
// 302, 303), the -X word without it; -u's login stays behind for both.
func TestCurlPostRedirects(t *testing.T) {
	to := httpcapture.New(t, nil)
	from := httpcapture.New(t, func(r httpcapture.Request) httpcapture.Answer {
		code, _ := strconv.Atoi(strings.TrimPrefix(r.Target, "/r"))
		return httpcapture.Redirect(code, to.URL+"/t")
	})
	for _, status := range []int{301, 302, 303, 307, 308} {
		for _, flags := range [][]string{{"-d", "a=1"}, {"-X", "POST", "-d", "a=1"}, {"-F", "a=1"}, {"-X", "PUT", "-d", "a=1"},
			{"-X", "DELETE"}, {"-u", "me:pw", "-d", "a=1"}, {fmt.Sprintf("--post%d", status), "-d", "a=1"}} {
			if status >= 307 && strings.HasPrefix(flags[0], "--post") {
				continue // curl has no --post307
			}
			name := fmt.Sprintf("%d %s", status, strings.Join(flags, " "))
			args := append([]string{"-sS", "-L", "-o", "out"}, append(flags, fmt.Sprintf("%s/r%d", from.URL, status))...)
			c, o := bothIn(t, "", args...)
			if c.code != 0 || o.code != 0 {
				t.Errorf("%s: curl exit %d %s; urlget exit %d %s", name, c.code, c.stderr, o.code, o.stderr)
				continue
			}
			first, then := from.Take(), to.Take()
			if len(first) != 2 || len(then) != 2 {
				t.Errorf("%s: %d and %d requests, want 2 each", name, len(first), len(then))
				continue
			}
			sameRequests(t, name, first[:1], first[1:])
			sameRequests(t, name+", after the redirect", then[:1], then[1:])
			t.Logf("%s: after the redirect both sent %s with %d bytes of body", name, then[1].Line, len(then[1].Body))
		}
	}
}

// TestCurlPostNginx: on the test bed's nginx a POST redirected by its
// 302 (/redirect → /text/lf.txt) becomes a GET for both, and with -X POST
// or --post302 stays a POST, which nginx refuses for a file (405); nginx
// logs the same requests from each, told apart by the login they send
// (the redirect stays on its origin, so the login goes along).
func TestCurlPostNginx(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl to compare with")
	}
	u := "http://" + testbed.Addr(testbed.HTTPPort) + "/redirect"
	for _, flags := range [][]string{{"-d", "a=1"}, {"-X", "POST", "-d", "a=1"}, {"-F", "a=1"}, {"--post302", "-d", "a=1"}} {
		lines := map[string][]string{}
		for _, who := range []string{"curl", "urlget"} {
			user := fmt.Sprintf("post-%s-%d", who, os.Getpid())
			args := append([]string{"-sS", "-L", "-o", "out", "-u", user + ":pw"}, append(flags, u)...)
			bin := urlgetBinary(t)
			if who == "curl" {
				bin, _ = exec.LookPath("curl")
			}
			from := testbed.LogSize(testbed.Nginx)
			runTwinIn(t, "", bin, args...)
			// nginx logs a request once it has answered it: the client
			// may have read the answer and exited before.
			await.Poll(func() bool {
				log, _ := testbed.ReadProtocolLogSince(testbed.Nginx, from)
				lines[who] = nil
				for _, l := range strings.Split(string(log), "\n") {
					if strings.Contains(l, `"`+user+`"`) {
						lines[who] = append(lines[who], nginxRequest.FindString(l))
					}
				}
				return len(lines[who]) >= 2
			})
		}
		c, o := strings.Join(lines["curl"], "; "), strings.Join(lines["urlget"], "; ")
		if c != o || len(lines["curl"]) != 2 {
			t.Errorf("%q: nginx logged\n curl:   %s\n urlget: %s", flags, c, o)
		}
		t.Logf("%q: nginx logged %s for both", flags, o)
	}
}

// nginxRequest is a log line's request and status: `"POST /redirect
// HTTP/1.1" 302`.
var nginxRequest = regexp.MustCompile(`"[A-Z]+ [^"]* HTTP/1\.[01]" [0-9]{3}`)
