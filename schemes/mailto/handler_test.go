package mailto

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func request(t *testing.T, raw string) *schemes.Request {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return &schemes.Request{URL: m, Dialer: &transport.Dialer{}, Trace: schemes.NopTrace{}}
}

// testHandler is a dry-run Handler with a fixed clock and Message-ID and
// no environment.
// callerWords are a caller's own words for options and settings
// ("<smtp-server>"), which a handler built from the declaration's Values
// uses in its messages.
var callerWords = Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()

func testHandler(stdin string) *Handler {
	return &Handler{
		From: "Urlget Tester <tester@example.org>", DryRun: true, Stdin: strings.NewReader(stdin),
		Getenv:    func(string) string { return "" },
		now:       func() time.Time { return time.Date(2026, 11, 21, 6, 30, 0, 0, time.UTC) },
		messageID: "fixed",
	}
}

func TestDryRunGolden(t *testing.T) {
	tests := []struct {
		name, url, stdin string
	}{
		// RFC 1738 §3.5: one addr-spec, "%" written %25; body from stdin.
		{"rfc1738", "mailto:user%25gateway@example.com", "Hello.\nSecond line.\n"},
		// RFC 6068 §6.1 examples.
		{"rfc6068-subject", "mailto:infobot@example.com?subject=current-issue", ""},
		{"rfc6068-body", "mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index", ""},
		{"rfc6068-cc", "mailto:joe@example.com?cc=bob@example.com&body=hello", ""},
		{"rfc6068-list", "mailto:?to=joe@example.com&cc=bob@example.com&body=hello", ""},
		{"rfc6068-several", "mailto:addr1@an.example,addr2@an.example?in-reply-to=%3C3469A91.D10AF4C@example.com%3E", "x"},
		// Encoded words and a UTF-8 body; unsafe fields left out; bcc not shown.
		{"utf8", "mailto:user@example.org?subject=caf%C3%A9%20%E2%98%95&bcc=hidden@example.net&X-Mailer=evil&body=na%C3%AFve%0Aline", ""},
		// A line over 998 octets forces quoted-printable.
		{"longline", "mailto:a@example.com?subject=long", strings.Repeat("x", 1200) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := testHandler(tt.stdin).Fetch(context.Background(), request(t, tt.url))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			golden := filepath.Join("testdata", tt.name+".eml")
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("message:\n%s\nwant (%s):\n%s", got, golden, want)
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	tests := []struct {
		name   string
		url    string
		from   string
		server string
		kind   schemes.Kind
		msg    string
	}{
		{"CR LF in subject", "mailto:a@example.com?subject=x%0D%0ABcc:%20victim@example.net", "", "", schemes.KindSafety, "header subject"},
		{"LF in address", "mailto:a%0A@example.com", "", "", schemes.KindSafety, "address 1"},
		{"CR in cc", "mailto:a@example.com?cc=b@example.com%0D", "", "", schemes.KindSafety, "header cc"},
		{"CR in from", "mailto:a@example.com", "me@example.org\r\nBcc: x@y", "", schemes.KindSafety, "From"},
		{"invalid addresses named", "mailto:a@@example.com,b@example.com,c@[x", "", "", schemes.KindUsage, `"a@@example.com", "c@[x"`},
		{"invalid from", "mailto:a@example.com", "not an address", "", schemes.KindUsage, `"not an address"`},
		{"no server", "mailto:a@example.com", "", "-", schemes.KindUsage,
			"use option smtp-server HOST[:PORT] or set URLGET_SMTP=HOST[:PORT] (port 587 by default), or option dry-run to print"},
		{"bad server", "mailto:a@example.com", "", "host:port", schemes.KindUsage, "HOST[:PORT]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := testHandler("")
			if tt.from != "" {
				h.From = tt.from
			}
			if tt.server != "" {
				h.DryRun = false
				if tt.server != "-" {
					h.Server = tt.server
				}
			}
			_, err := h.Fetch(context.Background(), request(t, tt.url))
			var se *schemes.Error
			if !errors.As(err, &se) || se.Kind != tt.kind || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want kind %v mentioning %q", err, tt.kind, tt.msg)
			}
		})
	}
}

func TestFromDefaults(t *testing.T) {
	env := map[string]string{"EMAIL": "e@example.com"}
	h := &Handler{Getenv: func(k string) string { return env[k] }}
	if got := h.from(); got != "e@example.com" {
		t.Errorf("from = %q, want $EMAIL", got)
	}
	env["URLGET_EMAIL"] = "u@example.com"
	if got := h.from(); got != "u@example.com" {
		t.Errorf("from = %q, want $URLGET_EMAIL", got)
	}
	h.From = "f@example.com"
	if got := h.from(); got != "f@example.com" {
		t.Errorf("from = %q, want From", got)
	}
	if got := (&Handler{Getenv: func(string) string { return "" }}).from(); !strings.Contains(got, "@") {
		t.Errorf("from = %q, want user@host", got)
	}
}

// received is what the fake server got.
type received struct {
	mu       sync.Mutex
	from     string
	rcpt     []string
	data     string
	user     string
	password string
	tls      bool
	sessions int // connections the server accepted
	messages int
}

type backend struct{ r *received }

func (b backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	b.r.mu.Lock()
	b.r.sessions++
	b.r.mu.Unlock()
	return &session{r: b.r, c: c}, nil
}

type session struct {
	r *received
	c *smtp.Conn
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		s.r.mu.Lock()
		defer s.r.mu.Unlock()
		s.r.user, s.r.password = user, pass
		if pass != "right" {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "bad password"}
		}
		return nil
	}), nil
}
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.from = from
	_, s.r.tls = s.c.TLSConnectionState()
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if strings.HasPrefix(to, "nobody@") {
		return &smtp.SMTPError{Code: 550, Message: "no such user"}
	}
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.rcpt = append(s.r.rcpt, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.data = string(b)
	s.r.messages++
	return err
}
func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }

// fakeSMTP runs go-smtp's server on 127.0.0.1, with STARTTLS when tlsCfg
// is set.
func fakeSMTP(t *testing.T, tlsCfg *tls.Config) (*received, int) {
	t.Helper()
	r := &received{}
	srv := smtp.NewServer(backend{r})
	srv.Domain = "fake.test"
	srv.TLSConfig = tlsCfg
	srv.AllowInsecureAuth = true
	srv.ErrorLog = quietLog{}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return r, ln.Addr().(*net.TCPAddr).Port
}

type quietLog struct{}

func (quietLog) Printf(string, ...interface{}) {}
func (quietLog) Println(...interface{})        {}

// selfSigned returns a server config for 127.0.0.1 and the pool trusting it.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, pool
}

// lines records a Trace.
type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) add(s string)      { l.mu.Lock(); l.l = append(l.l, s); l.mu.Unlock() }
func (l *lines) Sent(s string)     { l.add("> " + s) }
func (l *lines) Received(s string) { l.add("< " + s) }
func (l *lines) Info(s string)     { l.add("* " + s) }
func (l *lines) Secret(s string)   {}
func (l *lines) text() string      { l.mu.Lock(); defer l.mu.Unlock(); return strings.Join(l.l, "\n") }

func TestSendPlain(t *testing.T) {
	r, port := fakeSMTP(t, nil)
	h := testHandler("Hi Joe.\n")
	h.DryRun, h.Server = false, "127.0.0.1:"+strconv.Itoa(port)
	req := request(t, "mailto:joe@example.com?cc=bob@example.com&bcc=eve@example.net&subject=Greetings")
	tr := &lines{}
	req.Trace = tr
	resp, err := h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatalf("Fetch: %v\n%s", err, tr.text())
	}
	if b, _ := io.ReadAll(resp.Body); len(b) != 0 {
		t.Errorf("body %q, want empty", b)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.from != "tester@example.org" || strings.Join(r.rcpt, ",") != "joe@example.com,bob@example.com,eve@example.net" || r.tls {
		t.Errorf("envelope from %q rcpt %q tls %v", r.from, r.rcpt, r.tls)
	}
	for _, want := range []string{"From: \"Urlget Tester\" <tester@example.org>\r\n", "To: joe@example.com\r\n", "Cc: bob@example.com\r\n",
		"Subject: Greetings\r\n", "Message-ID: <fixed.urlget@example.org>\r\n", "\r\n\r\nHi Joe.\r\n"} {
		if !strings.Contains(r.data, want) {
			t.Errorf("message lacks %q:\n%s", want, r.data)
		}
	}
	if strings.Contains(r.data, "eve@") {
		t.Errorf("Bcc shown in the message:\n%s", r.data)
	}
	trace := tr.text()
	for _, want := range []string{"> MAIL FROM:<tester@example.org>", "> RCPT TO:<eve@example.net>", "< 250", "does not offer STARTTLS"} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace lacks %q:\n%s", want, trace)
		}
	}
	if strings.Contains(trace, "Hi Joe") {
		t.Errorf("trace shows the message text:\n%s", trace)
	}
}

func TestSendStartTLSAndAuth(t *testing.T) {
	srvCfg, pool := selfSigned(t)
	r, port := fakeSMTP(t, srvCfg)
	h := testHandler("")
	h.DryRun, h.Server = false, "127.0.0.1:"+strconv.Itoa(port)
	req := request(t, "mailto:joe@example.com?body=secret%20plans")
	req.RequireTLS = true
	req.Dialer = &transport.Dialer{TLS: &tls.Config{RootCAs: pool}}
	req.Credentials = func(scheme, host string, port int) (string, string, bool) { return "tester", "right", true }
	if _, err := h.Fetch(context.Background(), req); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	r.mu.Lock()
	if r.user != "tester" || r.password != "right" || !strings.Contains(r.data, "secret plans") {
		t.Errorf("auth %q/%q data %q", r.user, r.password, r.data)
	}
	r.mu.Unlock()

	// A wrong password is a permission error (exit 4) carrying the code.
	req.Credentials = func(string, string, int) (string, string, bool) { return "tester", "wrong", true }
	_, err := h.Fetch(context.Background(), req)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindPermission || se.Code != 535 {
		t.Errorf("wrong password: err = %v", err)
	}

	// An untrusted certificate is refused (exit 7).
	req.Dialer = &transport.Dialer{}
	if _, err := h.Fetch(context.Background(), req); schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("untrusted certificate: err = %v, want safety", err)
	}
}

// TestRequireTLSWithoutStartTLS: a server without STARTTLS, when the
// request requires TLS, is a safety error naming the setting as the
// caller does.
func TestRequireTLSWithoutStartTLS(t *testing.T) {
	for words, name := range map[*schemes.Words]string{{}: "fetch.RequireTLS", &callerWords: "<fetch.RequireTLS>"} {
		_, port := fakeSMTP(t, nil)
		h := testHandler("")
		h.DryRun, h.Server, h.words = false, "127.0.0.1:"+strconv.Itoa(port), *words
		req := request(t, "mailto:joe@example.com?body=x")
		req.RequireTLS = true // --ssl-reqd
		_, err := h.Fetch(context.Background(), req)
		if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "does not offer STARTTLS and "+name+" requires it") {
			t.Fatalf("err = %v, want a safety error about STARTTLS naming %s", err, name)
		}
	}
}

// TestNoServerInCallersWords: the error for no submission server names
// the options as the caller does.
func TestNoServerInCallersWords(t *testing.T) {
	h := testHandler("")
	h.DryRun, h.words = false, callerWords
	_, err := h.Fetch(context.Background(), request(t, "mailto:a@example.com"))
	if want := "use <smtp-server> HOST[:PORT] or set URLGET_SMTP=HOST[:PORT] (port 587 by default), or <dry-run> to print"; !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	h.Server = "host:port"
	if _, err := h.Fetch(context.Background(), request(t, "mailto:a@example.com")); !strings.Contains(fmt.Sprint(err), `<smtp-server> "host:port": want HOST[:PORT]`) {
		t.Errorf("err = %v, want the option named", err)
	}
}

func TestRecipientRefused(t *testing.T) {
	_, port := fakeSMTP(t, nil)
	h := testHandler("")
	h.DryRun, h.Server = false, "127.0.0.1:"+strconv.Itoa(port)
	_, err := h.Fetch(context.Background(), request(t, "mailto:nobody@example.com?body=x"))
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindNotFound || se.Code != 550 || !strings.Contains(err.Error(), "nobody@example.com") {
		t.Fatalf("err = %v, want not found 550 naming the address", err)
	}
}

func TestExplain(t *testing.T) {
	h := testHandler("")
	h.DryRun, h.Server = false, "mail.example.org"
	req := request(t, "mailto:joe@example.com?subject=hi&X-Evil=1")
	req.Credentials = func(string, string, int) (string, string, bool) { return "tester", "pw", true }
	plan, err := h.Explain(req)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	for _, want := range []string{"header To: joe@example.com", "body: read from stdin", `ignore header field "X-Evil"`,
		"connect mail.example.org:587", "STARTTLS", "AUTH PLAIN", "****", "RCPT TO:<joe@example.com>"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "pw") {
		t.Errorf("plan shows the password:\n%s", text)
	}
	if !strings.Contains(text, "STARTTLS if the server offers it") {
		t.Errorf("plan without --ssl-reqd:\n%s", text)
	}
	req.RequireTLS = true
	if plan, _ = h.Explain(req); !strings.Contains(strings.Join(plan, "\n"), "STARTTLS (required: fetch.RequireTLS)") {
		t.Errorf("plan with Request.RequireTLS:\n%s", strings.Join(plan, "\n"))
	}
	h.words = callerWords
	if plan, _ = h.Explain(req); !strings.Contains(strings.Join(plan, "\n"), "STARTTLS (required: <fetch.RequireTLS>)") {
		t.Errorf("plan with Request.RequireTLS in the caller's words:\n%s", strings.Join(plan, "\n"))
	}
}

// TestSendToOldServer talks to a server that knows only RFC 821: EHLO
// is refused, HELO works, nothing is offered.
func TestSendToOldServer(t *testing.T) {
	addr, got := rawSMTP(t, "220 old.test SMTP\r\n", map[string]string{"EHLO": "500 what?\r\n"})
	h := testHandler("")
	h.DryRun, h.Server = false, addr
	if _, err := h.Fetch(context.Background(), request(t, "mailto:joe@example.com?body=x")); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	log := <-got
	if !strings.Contains(log, "|HELO ") || !strings.Contains(log, "MAIL FROM:<tester@example.org>|RCPT TO:<joe@example.com>|DATA|QUIT") {
		t.Fatalf("session: %s", log)
	}
}

func textprotoReader(c net.Conn) *textproto.Reader { return textproto.NewReader(bufio.NewReader(c)) }

// FuzzCompose: whatever mailto URL parses, composing never panics, and a
// composed message's header holds only the fields urlget writes — no URL
// can inject one (a CR or LF smuggled into a field would start a new one).
func FuzzCompose(f *testing.F) {
	for _, s := range []string{
		"mailto:user%25gateway@example.com", "mailto:infobot@example.com?subject=current-issue",
		"mailto:joe@example.com?cc=bob@example.com&body=hello", "mailto:?to=joe@example.com&cc=bob@example.com",
		"mailto:a@example.com?subject=x%0D%0ABcc:%20victim@example.net", "mailto:a@b?subject=caf%C3%A9&keywords=a%0Ab",
		"mailto:a@b?In-Reply-To=%3Cx@y%3E&X-Evil=1&body=%FF%FE",
		"mailto:a@b?subject=" + strings.Repeat("long%20words%20", 30) + "&keywords=" + strings.Repeat("%C3%A9t%C3%A9%20", 40),
	} {
		f.Add(s, "Body text\n")
	}
	allowed := map[string]bool{"From": true, "To": true, "Cc": true, "Subject": true, "Date": true, "Message-ID": true,
		"MIME-Version": true, "Content-Type": true, "Content-Transfer-Encoding": true, "Keywords": true, "Comments": true,
		"In-Reply-To": true, "References": true}
	f.Fuzz(func(t *testing.T, raw, body string) {
		u, err := schemes.Parse(raw)
		if err != nil {
			return
		}
		m, err := Parse(u)
		if err != nil {
			return
		}
		msg, err := compose(m, composeInput{from: "t@example.org", body: []byte(body), hasBody: true, now: time.Unix(0, 0), id: "x"})
		if err != nil {
			if k := schemes.KindOf(err); k != schemes.KindSafety && k != schemes.KindUsage {
				t.Fatalf("compose error of kind %v: %v", k, err)
			}
			return
		}
		head, _, ok := strings.Cut(string(msg.text), "\r\n\r\n")
		if !ok {
			t.Fatalf("no end of header in %q", msg.text)
		}
		for _, line := range strings.Split(head, "\r\n") {
			if strings.HasPrefix(line, " ") {
				continue // a folded field goes on
			}
			name, _, ok := strings.Cut(line, ": ")
			if !ok || !allowed[name] || strings.ContainsAny(line, "\r\n") {
				t.Fatalf("header line %q in\n%s", line, msg.text)
			}
		}
	})
}

// tlsDialer is the transport Dialer, recording its StartTLS calls.
type tlsDialer struct {
	transport.Dialer
	mu    sync.Mutex
	calls []string
}

func (d *tlsDialer) StartTLS(ctx context.Context, c net.Conn, scheme, host string, opts ...schemes.TLSOption) (net.Conn, error) {
	d.mu.Lock()
	d.calls = append(d.calls, scheme+" "+host)
	d.mu.Unlock()
	return d.Dialer.StartTLS(ctx, c, scheme, host, opts...)
}

// TestStartTLSThroughDialer: STARTTLS upgrades the connection with the
// Dialer's StartTLS, and the SMTP exchange (the Dialer's notes included)
// is traced in the connection's own scope.
func TestStartTLSThroughDialer(t *testing.T) {
	srvCfg, pool := selfSigned(t)
	r, port := fakeSMTP(t, srvCfg)
	h := testHandler("")
	h.DryRun, h.Server = false, "127.0.0.1:"+strconv.Itoa(port)
	req := request(t, "mailto:joe@example.com?body=hi")
	req.RequireTLS = true
	d := &tlsDialer{Dialer: transport.Dialer{TLS: &tls.Config{RootCAs: pool}}}
	tr := schemestest.NewScopeTrace()
	req.Dialer, req.Trace = d, tr
	if _, err := h.Fetch(context.Background(), req); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	r.mu.Lock()
	if !r.tls {
		t.Error("the message was not sent over TLS")
	}
	r.mu.Unlock()
	if len(d.calls) != 1 || d.calls[0] != "mailto 127.0.0.1" {
		t.Errorf("StartTLS calls %q, want one for mailto 127.0.0.1", d.calls)
	}
	lines := tr.Lines()
	text := tr.String()
	for _, want := range []string{"1 * Connecting to 127.0.0.1:", "1 > STARTTLS", "1 * TLS ", "1 > MAIL FROM:<tester@example.org>", "1 < 250"} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "0 > ") || strings.HasPrefix(l, "0 < ") {
			t.Errorf("SMTP line in the root scope: %q", l)
		}
	}

	// An untrusted certificate is the Dialer's KindSafety.
	req.Dialer = &tlsDialer{}
	_, err := h.Fetch(context.Background(), req)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindSafety {
		t.Errorf("untrusted certificate: err = %#v, want KindSafety", err)
	}
}
