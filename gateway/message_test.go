package gateway

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// nntpFake is an NNTP server on 127.0.0.1 that answers every ARTICLE
// with article (LF line ends; sent dot-stuffed with CRLF). Before the
// part of the body after hold (when hold is not empty) it waits until
// release is closed.
func nntpFake(t *testing.T, article, hold string, release <-chan struct{}) string {
	t.Helper()
	addr, _ := fake(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		w := bufio.NewWriter(c)
		defer w.Flush()
		reply := func(s string) bool { w.WriteString(s); return w.Flush() == nil }
		if !reply("200 fake ready\r\n") {
			return
		}
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			cmd := strings.ToUpper(strings.Fields(line + " x")[0])
			switch cmd {
			case "CAPABILITIES":
				reply("101 Capability list:\r\nVERSION 2\r\nREADER\r\n.\r\n")
			case "GROUP":
				reply("211 1 1 1 local.test\r\n")
			case "ARTICLE":
				first, rest, _ := strings.Cut(article, hold)
				if hold == "" {
					first, rest = article, ""
				}
				if !reply("220 1 <a@b> article\r\n" + stuff(first)) {
					return
				}
				if hold != "" {
					<-release
					if !reply(stuff(hold + rest)) {
						return
					}
				}
				reply(".\r\n")
			case "QUIT":
				reply("205 bye\r\n")
				return
			default:
				reply("500 what?\r\n")
			}
		}
	})
	return addr
}

// stuff writes text of whole lines as NNTP sends it: CRLF line ends, a
// "." doubled at the start of a line.
func stuff(text string) string {
	text = strings.ReplaceAll(text, "\n", "\r\n")
	text = strings.ReplaceAll(text, "\n.", "\n..")
	if strings.HasPrefix(text, ".") {
		text = "." + text
	}
	return text
}

// pageBody is the text in the article page's <pre id="body">, as sent.
func pageBody(t *testing.T, page string) string {
	t.Helper()
	_, after, ok := strings.Cut(page, "<pre id=\"body\">\n")
	body, _, ok2 := strings.Cut(after, "</pre>")
	if !ok || !ok2 {
		t.Fatalf("no <pre id=\"body\"> on the page:\n%s", page)
	}
	return body
}

// hostileArticle tries to script the gateway's page from every header
// field, and names articles and groups to link.
const hostileArticle = "Path: a!b\n" +
	"From: \"Eve \\\"<script>\" <eve@127.0.0.1>\n" +
	"Newsgroups: local.test, <script>alert(1)</script>,comp.lang.c++\n" +
	"Followup-To: poster\n" +
	"Subject: <script>window.pwned=1</script> 'single' \"double\"\n" +
	"Message-ID: <a/b?c%d@x.test>\n" +
	"References: <one@x.test> javascript:alert(2)\n" +
	"\t<two@x.test> <\"><img src=x onerror=alert(3)>@x>\n" +
	"In-Reply-To: <two@x.test>\n" +
	"X-Control: red\x1b[31m bell\x07 nul\x00 end\n" +
	"X-Encoded: =?utf-8?q?caf=C3=A9_=3Cb=3E?=\n" +
	"\n" +
	"Body <b>bold</b> & 'q' \"dq\"\n" +
	".leading dot\n" +
	"ctl\x1b here\n"

func TestMessagePage(t *testing.T) {
	addr := nntpFake(t, hostileArticle, "", nil)
	base := gateway(t, Options{})
	resp, page := get(t, newRequest(t, "GET", base+Address("nntp://"+addr+"/local.test/1")))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%d %v\n%s", resp.StatusCode, resp.Header, page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q, want the gateway pages'", csp)
	}
	news := "/news///" + addr + "/"
	for _, want := range []string{
		`<tr><th>Path</th><td>a!b</td></tr>`,
		`<tr><th>From</th><td>&#34;Eve \&#34;&lt;script&gt;&#34; &lt;eve@127.0.0.1&gt;</td></tr>`,
		// Each group links to its listing; a name that is none is text.
		`<tr><th>Newsgroups</th><td><a href="/nntp/` + addr + `/local.test">local.test</a>, &lt;script&gt;alert(1)&lt;/script&gt;,<a href="/nntp/` + addr + `/comp.lang.c&#43;&#43;">comp.lang.c&#43;&#43;</a></td></tr>`,
		`<tr><th>Followup-To</th><td>poster</td></tr>`,
		`<tr><th>Subject</th><td>&lt;script&gt;window.pwned=1&lt;/script&gt; &#39;single&#39; &#34;double&#34;</td></tr>`,
		// '%', '/', '?' in an id are escaped so that the address gives it back.
		`<tr><th>Message-ID</th><td><a href="` + news + `a/b?c%25d@x.test">&lt;a/b?c%d@x.test&gt;</a></td></tr>`,
		// Unfolded; the text between ids stays text, a malformed id too.
		`<tr><th>References</th><td><a href="` + news + `one@x.test">&lt;one@x.test&gt;</a> javascript:alert(2) <a href="` + news + `two@x.test">&lt;two@x.test&gt;</a> &lt;&#34;&gt;&lt;img src=x onerror=alert(3)&gt;@x&gt;</td></tr>`,
		`<tr><th>In-Reply-To</th><td><a href="` + news + `two@x.test">&lt;two@x.test&gt;</a></td></tr>`,
		`<tr><th>X-Control</th><td>red\x1b[31m bell\x07 nul\x00 end</td></tr>`,
		`<tr><th>X-Encoded</th><td>café &lt;b&gt;</td></tr>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s:\n%s", want, page)
		}
	}
	if got, want := pageBody(t, page), "Body &lt;b&gt;bold&lt;/b&gt; &amp; &#39;q&#39; &#34;dq&#34;\n.leading dot\nctl\\x1b here\n"; got != want {
		t.Errorf("body shown as %q, want %q", got, want)
	}
	for _, bad := range []string{"<script>", "<img", "<b>", `href="javascript:`, "\x1b", "\x00", "\x07"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q:\n%s", bad, page)
		}
	}

	// HEAD: the page's head, no body.
	resp, page = get(t, newRequest(t, "HEAD", base+Address("nntp://"+addr+"/local.test/1")))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || page != "" {
		t.Errorf("HEAD: %d %v %q", resp.StatusCode, resp.Header, page)
	}

	// A proxy's client gets the article's bytes.
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET nntp://%s/local.test/1 HTTP/1.1\r\nHost: %s\r\n\r\n", addr, addr)
	presp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(presp.Body)
	if presp.Header.Get("Content-Type") != "message/rfc822" || string(raw) != hostileArticle {
		t.Errorf("proxy: %v %q", presp.Header, raw)
	}
}

// TestMessagePageByType: what makes a message page is the media type, from
// any scheme; a URL that names no articles (http) leaves the ids as text.
func TestMessagePageByType(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "message/news")
		io.WriteString(w, "Message-ID: <m@x>\nNewsgroups: local.test\n\n<p>hi</p>\n")
	}))
	defer up.Close()
	base := gateway(t, Options{})
	resp, page := get(t, newRequest(t, "GET", base+Address(up.URL+"/a.msg")))
	for _, want := range []string{
		`<tr><th>Message-ID</th><td>&lt;m@x&gt;</td></tr>`,
		`<tr><th>Newsgroups</th><td>local.test</td></tr>`,
		"<pre id=\"body\">\n&lt;p&gt;hi&lt;/p&gt;\n</pre>",
	} {
		if resp.StatusCode != 200 || !strings.Contains(page, want) {
			t.Errorf("%d: page lacks %s:\n%s", resp.StatusCode, want, page)
		}
	}
	// HEAD, answered from http's stat, has the page's head too.
	resp, page = get(t, newRequest(t, "HEAD", base+Address(up.URL+"/a.msg")))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || page != "" {
		t.Errorf("HEAD: %d %v %q", resp.StatusCode, resp.Header, page)
	}
}

// TestMessagePageStreams: a body of several MiB is shown whole, and
// streams: the page shows its first part while the server still holds
// back the rest, so the gateway keeps none of it.
func TestMessagePageStreams(t *testing.T) {
	var b strings.Builder
	b.WriteString("Subject: big\nMessage-ID: <big@x>\n\n")
	for i := 0; b.Len() < 4<<20; i++ {
		fmt.Fprintf(&b, ".line %d <&> \"'\n", i)
	}
	article := b.String()
	const hold = "HOLD\n"
	half := strings.Index(article, ".line 40000 ")
	article = article[:half] + hold + article[half:]
	release := make(chan struct{})
	addr := nntpFake(t, article, hold, release)
	base := gateway(t, Options{})

	resp, err := http.Get(base + Address("nntp://"+addr+"/local.test/1"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page strings.Builder
	first := html.EscapeString(article[strings.Index(article, "\n\n")+2 : half])
	done := make(chan error, 1)
	go func() {
		// Up to the end of the part sent before the hold.
		buf := make([]byte, 32<<10)
		for !strings.HasSuffix(page.String(), first) {
			n, err := resp.Body.Read(buf)
			page.Write(buf[:n])
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the page ended before the server's hold: %v", err)
		}
	case <-time.After(10 * time.Second):
		close(release)
		t.Fatal("the page did not show the body's first part while the server held the rest")
	}
	close(release)
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	page.Write(rest)
	body := article[strings.Index(article, "\n\n")+2:]
	if got, want := pageBody(t, page.String()), html.EscapeString(body); got != want {
		t.Errorf("body shown: %d bytes, want %d (the escaped body)", len(got), len(want))
	}
	if strings.Contains(page.String(), `id="error"`) {
		t.Errorf("the page shows a failure")
	}
}

// TestMessagePageLongHeader: a header past the caps is shown up to them,
// with a line saying so, and the rest as text.
func TestMessagePageLongHeader(t *testing.T) {
	big := "X-Big: " + strings.Repeat("<b>long</b> ", 7000) + "\n" // > 64 KiB
	var many strings.Builder
	for i := range maxFields + 100 {
		fmt.Fprintf(&many, "X-F%d: v<%d>\n", i, i)
	}
	for _, c := range []struct {
		name, header string
		fields       int    // rows in the table
		note         string // in the line that says why
		rest         string // the header text shown as the body's
	}{
		{"bytes", "Subject: s\n" + big + "Message-ID: <m@x>\n", 1, "longer than 64 KiB", html.EscapeString(big + "Message-ID: <m@x>\n")},
		{"fields", many.String(), maxFields, fmt.Sprintf("more than %d fields", maxFields), fmt.Sprintf("X-F%d: v&lt;%d&gt;\n", maxFields, maxFields)},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr := nntpFake(t, c.header+"\nthe body\n", "", nil)
			base := gateway(t, Options{})
			resp, page := get(t, newRequest(t, "GET", base+Address("nntp://"+addr+"/local.test/1")))
			if resp.StatusCode != 200 {
				t.Fatalf("%d %s", resp.StatusCode, page)
			}
			if n := strings.Count(page, "<tr>"); n != c.fields {
				t.Errorf("%d fields in the table, want %d", n, c.fields)
			}
			if !strings.Contains(page, `<p class="error" id="header-note">`) || !strings.Contains(page, c.note) {
				t.Errorf("no note %q on the page", c.note)
			}
			body := pageBody(t, page)
			if !strings.HasPrefix(body, c.rest) || !strings.HasSuffix(body, "\n\nthe body\n") {
				t.Errorf("the rest shown as %.200q ... %.200q", body, body[max(0, len(body)-200):])
			}
			if strings.Contains(page, "<b>") {
				t.Errorf("unescaped header text on the page")
			}
		})
	}
}
