package gateway

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
)

// TestSubmitNeverRetried: a gateway whose Client retries (urlget serve
// --retry 3) submits a form once, even when the server then breaks the
// connection, a failure that is retried for a retrieval: the server had
// the answers, and a retry would submit them again.
func TestSubmitNeverRetried(t *testing.T) {
	var subs atomic.Int32
	addr, _ := fake(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		line, _ := br.ReadString('\n')
		switch {
		case line == "/form\t!\r\n":
			io.WriteString(c, "+-2\r\n+INFO: 0Form\t/form\t127.0.0.1\t70\t?\r\n+ASK:\r\n Ask: Name?\r\n")
		case strings.HasPrefix(line, "/form\t+\t1\r\n"):
			for {
				if l, err := br.ReadString('\n'); err != nil || l == ".\r\n" {
					break
				}
			}
			subs.Add(1)
			// Reset with no reply: a broken connection.
			c.(*net.TCPConn).SetLinger(0)
		}
	})
	base := gateway(t, Options{Client: &fetch.Client{Retries: 3, RetryDelay: time.Millisecond}})
	form := "gopher://" + addr + "/0/form%09%09?"
	_, page := get(t, newRequest(t, "GET", base+Address(form)))
	token := regexp.MustCompile(`name="token" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if token == nil {
		t.Fatalf("no form:\n%s", page)
	}
	resp, body := postForm(t, base+Address(form), url.Values{"n": {"1"}, "a1": {"Ada"}}, token[1], "same-origin")
	if resp.StatusCode == http.StatusOK {
		t.Errorf("a submission the server never answered: %d %q", resp.StatusCode, body)
	}
	if n := subs.Load(); n != 1 {
		t.Errorf("the form was submitted %d times, want 1", n)
	}
}
