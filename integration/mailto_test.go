//go:build integration

package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/mailto"
	"github.com/urlget/urlget/transport"

	"github.com/urlget/urlget/integration/testbed"
)

// The mailto: scheme sends a message rather than retrieving a data object,
// so it is not run through the file-oriented conformance suite; these tests
// send to aiosmtpd and read what it stored in the Maildir.

func mailClient(h *mailto.Handler, trace io.Writer) *fetch.Client {
	c := &fetch.Client{
		Registry: mustRegistry(fetch.Config{Override: mailto.Schemes(h)}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
	}
	if trace != nil {
		c.Trace = transport.NewTrace(trace)
	}
	return c
}

// findMail waits for the message whose Subject header (as stored, encoded)
// contains tag to appear in the Maildir and parses it.
func findMail(t *testing.T, tag string) (*mail.Message, []byte) {
	t.Helper()
	dir := filepath.Join(testbed.MailDir(), "new")
	var name string
	var b []byte
	if !await.Poll(func() bool {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if b, _ = os.ReadFile(filepath.Join(dir, e.Name())); bytes.Contains(b, []byte(tag)) {
				name = e.Name()
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no message tagged %s in %s", tag, dir)
	}
	m, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("stored message %s: %v", name, err)
	}
	return m, b
}

func randomTag(t *testing.T) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "urlget-" + hex.EncodeToString(b[:])
}

func TestMailtoSend(t *testing.T) {
	testbed.Require(t, "smtp")
	tag := randomTag(t)
	h := &mailto.Handler{
		Server: testbed.Addr(testbed.SMTPPort), From: "Tester <tester@urlget.test>",
		Stdin:  strings.NewReader("never read: the URL has a body\n"),
		Getenv: func(string) string { return "" },
	}
	raw := "mailto:alice@urlget.test,bob@urlget.test?subject=" + tag + "%20caf%C3%A9&cc=carol@urlget.test" +
		"&bcc=dave@urlget.test&body=Hello%20Alice%2C%0D%0Ana%C3%AFve%20second%20line%0D%0A.%20dot%20line"
	var trace bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := mailClient(h, &trace).Get(ctx, raw)
	if err != nil {
		t.Fatalf("send: %v\n%s", err, trace.String())
	}
	if b, _ := io.ReadAll(resp.Body); len(b) != 0 {
		t.Errorf("body %q, want empty", b)
	}
	resp.Body.Close()

	m, _ := findMail(t, tag)
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(m.Header.Get("Subject"))
	if err != nil || subject != tag+" café" {
		t.Errorf("Subject %q (%v), want %q", subject, err, tag+" café")
	}
	for name, want := range map[string]string{
		"From": `"Tester" <tester@urlget.test>`, "To": "alice@urlget.test, bob@urlget.test", "Cc": "carol@urlget.test",
		"MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable", "X-MailFrom": "tester@urlget.test",
	} {
		if got := m.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if got := m.Header.Get("X-RcptTo"); !strings.Contains(got, "dave@urlget.test") || !strings.Contains(got, "carol@urlget.test") {
		t.Errorf("X-RcptTo %q: want every recipient, Bcc included", got)
	}
	for name, values := range m.Header {
		if name != "X-Rcptto" && strings.Contains(strings.Join(values, ","), "dave@") {
			t.Errorf("Bcc recipient shown in header %s: %q", name, values)
		}
	}
	if _, err := mail.ParseDate(m.Header.Get("Date")); err != nil {
		t.Errorf("Date %q: %v", m.Header.Get("Date"), err)
	}
	if id := m.Header.Get("Message-ID"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@urlget.test>") ||
		!strings.Contains(trace.String(), id) {
		t.Errorf("Message-ID %q (not in the trace?)", id)
	}
	body, _ := io.ReadAll(m.Body)
	// aiosmtpd's Maildir stores LF line ends; quoted-printable as sent.
	wantBody := "Hello Alice,\nna=C3=AFve second line\n. dot line\n"
	if got := strings.ReplaceAll(string(body), "\r\n", "\n"); got != wantBody {
		t.Errorf("body %q, want %q", got, wantBody)
	}
	if strings.Contains(trace.String(), "Hello Alice") {
		t.Errorf("trace shows the message text")
	}
}

// TestMailtoBodyFromStdin sends an ASCII message whose body comes from
// stdin, addressed the RFC 1738 way (one addr-spec, %25 for "%").
func TestMailtoBodyFromStdin(t *testing.T) {
	testbed.Require(t, "smtp")
	tag := randomTag(t)
	h := &mailto.Handler{
		Server: testbed.Addr(testbed.SMTPPort), Getenv: func(k string) string {
			if k == "URLGET_EMAIL" {
				return "env-sender@urlget.test"
			}
			return ""
		},
		Stdin: strings.NewReader("Line one\nLine two\n"),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := mailClient(h, nil).Get(ctx, "mailto:user%25relay@urlget.test?subject="+tag)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	resp.Body.Close()
	m, _ := findMail(t, tag)
	if m.Header.Get("From") != "env-sender@urlget.test" || m.Header.Get("To") != "user%relay@urlget.test" ||
		m.Header.Get("Content-Transfer-Encoding") != "7bit" {
		t.Errorf("header %v", m.Header)
	}
	body, _ := io.ReadAll(m.Body)
	if got := strings.ReplaceAll(string(body), "\r\n", "\n"); got != "Line one\nLine two\n" {
		t.Errorf("body %q", got)
	}
}

// TestMailtoRefusals: aiosmtpd offers no STARTTLS, so --ssl-reqd refuses
// to send; header injection is refused before connecting.
func TestMailtoRefusals(t *testing.T) {
	testbed.Require(t, "smtp")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h := &mailto.Handler{Server: testbed.Addr(testbed.SMTPPort), From: "t@urlget.test",
		Stdin: strings.NewReader(""), Getenv: func(string) string { return "" }}
	c := mailClient(h, nil)
	c.RequireTLS = true // --ssl-reqd: the Client's policy, on the Request
	_, err := c.Get(ctx, "mailto:alice@urlget.test?body=x")
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(fmt.Sprint(err), "STARTTLS") {
		t.Errorf("--ssl-reqd: err = %v, want safety (exit 7)", err)
	}
	_, err = mailClient(h, nil).Get(ctx, "mailto:alice@urlget.test?subject=x%0D%0ABcc:%20victim@urlget.test&body=x")
	if schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("injection: err = %v, want safety (exit 7)", err)
	}
}
