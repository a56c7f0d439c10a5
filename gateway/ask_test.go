package gateway

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// askFake is a Gopher+ server with one +ASK item, /form, listed in its
// menu (any other selector) with the "?" flag, whose questions are of
// every kind and hostile, each with a default (so that a client without
// answers of its own could submit them at once). It records the data block of each submission
// it receives, byte for byte.
type askFake struct {
	addr string
	mu   sync.Mutex
	subs []string
}

// askBlock is /form's +ASK block: each prompt, choice and default tries
// to end its element and run a script.
const askBlock = "+ASK:\r\n" +
	" Ask: <script>window.pwned=1</script>Name?\t\"><script>window.pwned=2</script>\r\n" +
	" AskP: Pin\"><img src=x onerror=alert(1)>?\tSERVERPIN\r\n" +
	" AskL: Comments</textarea><script>x()</script>\t</textarea><script>window.pwned=3</script>\r\n" +
	" AskF: A file<b>!</b>\tnotes.txt\r\n" +
	" Choose: Protocol?\tgopher\t</option><script>y()</script>\thttp\r\n" +
	" Select: Subscribe <i>now</i>?:1\r\n" +
	" Note: Read <a href=javascript:z()>me</a>\x1b[31m\r\n"

func newAskFake(t *testing.T) *askFake {
	f := &askFake{}
	f.addr, _ = fake(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		line, _ := br.ReadString('\n')
		switch {
		case line == "/form\t!\r\n":
			io.WriteString(c, "+-2\r\n+INFO: 0Form\t/form\t127.0.0.1\t70\t?\r\n"+askBlock)
		case strings.HasPrefix(line, "/form\t+\t1\r\n"):
			var b strings.Builder
			for {
				l, err := br.ReadString('\n')
				b.WriteString(l)
				if err != nil || l == ".\r\n" {
					break
				}
			}
			f.mu.Lock()
			f.subs = append(f.subs, b.String())
			f.mu.Unlock()
			io.WriteString(c, "+-1\r\nThanks <b>you</b>.\r\n.\r\n")
		default:
			io.WriteString(c, "+-1\r\n0Form\t/form\t"+strings.Replace(f.addr, ":", "\t", 1)+"\t?\r\n.\r\n")
		}
	})
	return f
}

func (f *askFake) submissions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.subs...)
}

// TestAskForm: a Gopher+ +ASK item is opened from its menu at a form of
// its questions, every one escaped (a hostile prompt is text) and a
// password's default never shown; GET and HEAD submit nothing, nor does
// a proxy's GET, which is refused; a POST
// without the form's token, with another's, or from another site is
// refused and submits nothing; the form's POST submits exactly the
// answers given and shows the server's reply.
func TestAskForm(t *testing.T) {
	f := newAskFake(t)
	base := gateway(t, Options{})
	form := "gopher://" + f.addr + "/0/form%09%09?"

	_, menu := get(t, newRequest(t, "GET", base+Address("gopher://"+f.addr+"/1/")))
	if want := `<a href="` + Address(form) + `">Form</a>`; !strings.Contains(menu, want) {
		t.Errorf("the menu does not link the item to its form %s:\n%s", want, menu)
	}

	resp, page := get(t, newRequest(t, "GET", base+Address(form)))
	if resp.StatusCode != 200 {
		t.Fatalf("GET the form: %d %s", resp.StatusCode, page)
	}
	_, body, _ := strings.Cut(page, `<form id="ask"`)
	for _, want := range []string{
		`<p class="text"><label>&lt;script&gt;window.pwned=1&lt;/script&gt;Name?` + "\n" + `<input name="a1" size="40" value="&#34;&gt;&lt;script&gt;window.pwned=2&lt;/script&gt;"></label></p>`,
		`<p class="password"><label>Pin&#34;&gt;&lt;img src=x onerror=alert(1)&gt;?` + "\n" + `<input type="password" name="a2" autocomplete="off"></label></p>`,
		`<p class="lines"><label>Comments&lt;/textarea&gt;&lt;script&gt;x()&lt;/script&gt;` + "\n" + `<br><textarea name="a3" rows="6" cols="72">&lt;/textarea&gt;&lt;script&gt;window.pwned=3&lt;/script&gt;</textarea></label></p>`,
		`<p class="file"><label>A file&lt;b&gt;!&lt;/b&gt; (the file's text)` + "\n" + `<br><textarea name="a4"`,
		`<select name="a5"><option value="gopher" selected>gopher</option><option value="&lt;/option&gt;&lt;script&gt;y()&lt;/script&gt;">&lt;/option&gt;&lt;script&gt;y()&lt;/script&gt;</option><option value="http">http</option></select>`,
		`<p class="check"><input type="hidden" name="a6" value="0"><label><input type="checkbox" name="a6" value="1" checked> Subscribe &lt;i&gt;now&lt;/i&gt;?</label></p>`,
		`<p class="note">Read &lt;a href=javascript:z()&gt;me&lt;/a&gt;\x1b[31m</p>`,
		`<input type="hidden" name="n" value="7">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the form lacks %s:\n%s", want, body)
		}
	}
	for _, bad := range []string{"<script", "<img", "<b>", "<i>", "<a ", "SERVERPIN"} {
		if strings.Contains(body, bad) {
			t.Errorf("the form holds %s:\n%s", bad, body)
		}
	}
	if resp, _ := get(t, newRequest(t, "HEAD", base+Address(form))); resp.StatusCode != 200 {
		t.Errorf("HEAD the form: %d", resp.StatusCode)
	}
	// A proxy's client cannot post the form back: it is refused, and
	// submits nothing either.
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET "+form+" HTTP/1.1\r\nHost: "+f.addr+"\r\n\r\n")
	if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a proxy's GET of the form: %v, %v", resp, err)
	}
	if subs := f.submissions(); len(subs) != 0 {
		t.Fatalf("GET and HEAD submitted %q", subs)
	}
	token := regexp.MustCompile(`name="token" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if token == nil {
		t.Fatalf("no token on the form")
	}

	answers := url.Values{"n": {"7"}, "a1": {"Ada <L>"}, "a2": {"s3cret"}, "a3": {"one\r\n.two"}, "a4": {"file line"},
		"a5": {"http"}, "a6": {"0", "1"}, "a7": {"ignored"}}
	post := func(base, token, site string) (*http.Response, string) {
		v := url.Values{}
		for k, x := range answers {
			v[k] = x
		}
		return postForm(t, base+Address(form), v, token, site)
	}
	other := gateway(t, Options{})
	for _, c := range []struct {
		name, base, token, site string
	}{
		{"no token", base, "", "same-origin"},
		{"a wrong token", base, strings.Repeat("0", 64), "same-origin"},
		{"another gateway's token", other, token[1], "same-origin"},
		{"cross-site", base, token[1], "cross-site"},
	} {
		if resp, body := post(c.base, c.token, c.site); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST with %s: %d %s", c.name, resp.StatusCode, body)
		}
	}
	if subs := f.submissions(); len(subs) != 0 {
		t.Fatalf("a refused POST submitted %q", subs)
	}

	resp, reply := post(base, token[1], "same-origin")
	if resp.StatusCode != 200 || reply != "Thanks <b>you</b>.\n" || resp.Header.Get("Content-Security-Policy") != "sandbox" {
		t.Errorf("POST the form: %d %v %q", resp.StatusCode, resp.Header, reply)
	}
	// One line each, in order; the lines and the file as a count and
	// their lines (the "." dot-stuffed); the note sends nothing.
	want := "+-1\r\nAda <L>\r\ns3cret\r\n2\r\none\r\n..two\r\n1\r\nfile line\r\nhttp\r\n1\r\n.\r\n"
	if subs := f.submissions(); len(subs) != 1 || subs[0] != want {
		t.Errorf("the server received %q, want %q", subs, want)
	}
}
