package gemini

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// selfSigned makes a certificate for 127.0.0.1 valid from notBefore to
// notAfter, as gemini servers' usually are: signed by itself.
func selfSigned(t *testing.T, notBefore, notAfter time.Time) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: notBefore, NotAfter: notAfter, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// fakeServer is a gemini server for the tests: it answers each request
// line with replies[line] (the request line without CRLF, the server's
// URL prefix written "@"), and serves whichever certificate cert holds.
type fakeServer struct {
	ln      net.Listener
	cert    atomic.Pointer[tls.Certificate]
	replies map[string]string
	got     chan string
}

func newFakeServer(t *testing.T, cert tls.Certificate, replies map[string]string) *fakeServer {
	t.Helper()
	s := &fakeServer{replies: replies, got: make(chan string, 100)}
	s.cert.Store(&cert)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{MinVersion: tls.VersionTLS12,
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return s.cert.Load(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	s.ln = ln
	serveEach(t, ln, s.serve)
	return s
}

// serveEach serves each connection ln accepts with serve, in a goroutine
// of its own, until the test ends (ln closed), closing it after.
func serveEach(t *testing.T, ln net.Listener, serve func(net.Conn)) {
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
}

func (s *fakeServer) base() string { return "gemini://" + s.ln.Addr().String() }

func (s *fakeServer) serve(c net.Conn) {
	defer c.Close()
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return
	}
	line = strings.TrimSuffix(line, "\r\n")
	s.got <- line
	reply, ok := s.replies[strings.Replace(line, s.base(), "@", 1)]
	if !ok {
		reply = "51 Not found\r\n"
	}
	io.WriteString(c, strings.ReplaceAll(reply, "@", s.base()))
}

// get runs Fetch (or List) and returns the body or the listing.
func get(t *testing.T, h *Handler, raw string, list bool, tr schemes.Trace) (*schemes.Response, string, []schemes.Entry, error) {
	t.Helper()
	loc, err := parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	req := &schemes.Request{URL: loc, Dialer: &transport.Dialer{}, Trace: tr}
	var resp *schemes.Response
	if list {
		resp, err = h.List(context.Background(), req)
	} else {
		resp, err = h.Fetch(context.Background(), req)
	}
	if err != nil {
		return nil, "", nil, err
	}
	var body string
	var entries []schemes.Entry
	if resp.Body != nil {
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		body = string(b)
	}
	if resp.Listing != nil {
		if entries, err = schemes.ReadAll(resp.Listing); err != nil {
			t.Fatal(err)
		}
	}
	return resp, body, entries, nil
}

var capsule = map[string]string{
	"@/":                 "20 text/gemini\r\n# Home\n=> doc.gmi A document\n=> sub/ Below\n=> /find Search\n",
	"@/doc.gmi":          "20 text/plain; charset=utf-8\r\nplain\r\nbytes\x00\n",
	"@/find":             "10 What word?\r\n",
	"@/find?two%20words": "20 text/gemini\r\nfound: two words\n",
	"@/find?again":       "10 What word?\r\n",
	"@/old":              "31 /new\r\n",
	"@/gone":             "52 It went away\r\n",
	"@/busy":             "44 30\r\n",
	"@/cert":             "60 Who are you?\r\n",
	"@/bad":              "HTTP/1.0 200 OK\r\n",
}

// TestTranscript fetches from the fake server and reads the protocol
// trace back: one request line, the URL, and one header.
func TestTranscript(t *testing.T) {
	now := time.Now()
	srv := newFakeServer(t, selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour)), capsule)
	h := &Handler{KnownHosts: filepath.Join(t.TempDir(), "known")}
	tr := &schemestest.Trace{}
	resp, body, _, err := get(t, h, srv.base()+"/doc.gmi", false, tr)
	if err != nil {
		t.Fatal(err)
	}
	if body != "plain\r\nbytes\x00\n" || resp.Type != "text/plain; charset=utf-8" || resp.Name != "doc.gmi" {
		t.Errorf("body %q type %q name %q", body, resp.Type, resp.Name)
	}
	want := "> " + srv.base() + "/doc.gmi\n< 20 text/plain; charset=utf-8"
	if got := tr.String(); !strings.Contains(got, want) {
		t.Errorf("trace:\n%s\nwant it to hold:\n%s", got, want)
	}
	if got := <-srv.got; got != srv.base()+"/doc.gmi" {
		t.Errorf("server got %q", got)
	}
}

// TestStatuses covers each class of reply.
func TestStatuses(t *testing.T) {
	now := time.Now()
	srv := newFakeServer(t, selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour)), capsule)
	h := &Handler{KnownHosts: filepath.Join(t.TempDir(), "known")}

	_, _, entries, err := get(t, h, srv.base()+"/", true, nil)
	if err != nil || len(entries) != 3 || schemestest.LocatorString(entries[1]) != srv.base()+"/sub/" || entries[1].Kind != schemes.EntryDir {
		t.Errorf("listing %+v %v", entries, err)
	}
	if _, _, _, err := get(t, h, srv.base()+"/doc.gmi", true, nil); schemestest.UsageError(t, err, "path") == nil {
		t.Error("a text/plain document listed")
	}

	words := "two words"
	_, body, _, err := get(t, &Handler{KnownHosts: h.KnownHosts, Input: &words}, srv.base()+"/find", false, nil)
	if err != nil || body != "found: two words\n" {
		t.Errorf("input: %q %v", body, err)
	}
	if _, _, _, err := get(t, h, srv.base()+"/find", false, nil); schemestest.UsageError(t, err, "query") == nil {
		t.Error("input asked for and none given: no usage error")
	}
	if _, _, _, err := get(t, h, srv.base()+"/find?again", false, nil); schemes.KindOf(err) != schemes.KindProtocol {
		t.Errorf("input asked again for a URL with a query: %v", err)
	}

	resp, _, _, err := get(t, h, srv.base()+"/old", false, nil)
	if err != nil || resp.Redirect != srv.base()+"/new" || resp.Status != statusRedirectPerm {
		t.Errorf("redirect %+v %v", resp, err)
	}

	for path, kind := range map[string]schemes.Kind{
		"/missing": schemes.KindNotFound, "/gone": schemes.KindNotFound, "/busy": schemes.KindBusy,
		"/cert": schemes.KindPermission, "/bad": schemes.KindProtocol,
	} {
		_, _, _, err := get(t, h, srv.base()+path, false, nil)
		if schemes.KindOf(err) != kind {
			t.Errorf("%s: %v (kind %v), want %v", path, err, schemes.KindOf(err), kind)
		}
	}
	_, _, _, err = get(t, h, srv.base()+"/busy", false, nil)
	if e, ok := err.(*schemes.Error); !ok || e.RetryAfter != 30*time.Second {
		t.Errorf("44 30: %#v, want RetryAfter 30s", err)
	}
}

// TestTrustOnFirstUse: the first certificate is remembered; the same one
// is trusted again; another is refused while the first is valid, and
// replaces it once the first has expired.
func TestTrustOnFirstUse(t *testing.T) {
	now := time.Now()
	first := selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour))
	srv := newFakeServer(t, first, capsule)
	known := filepath.Join(t.TempDir(), "sub", "known")
	h := &Handler{KnownHosts: known}
	if _, _, _, err := get(t, h, srv.base()+"/doc.gmi", false, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(known)
	if err != nil || !strings.Contains(string(b), srv.ln.Addr().String()+" ") {
		t.Fatalf("known hosts %q %v", b, err)
	}
	if _, _, _, err := get(t, h, srv.base()+"/doc.gmi", false, nil); err != nil {
		t.Fatalf("the same certificate again: %v", err)
	}

	srv.cert.Store(ptr(selfSigned(t, now.Add(-time.Hour), now.Add(48*time.Hour))))
	_, _, _, err = get(t, h, srv.base()+"/doc.gmi", false, nil)
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("changed certificate: %v (kind %v), want a safety refusal", err, schemes.KindOf(err))
	}
	if b2, _ := os.ReadFile(known); string(b2) != string(b) {
		t.Error("a refused certificate changed the known hosts file")
	}

	later := &Handler{KnownHosts: known, Now: func() time.Time { return now.Add(2 * time.Hour) }}
	if _, _, _, err := get(t, later, srv.base()+"/doc.gmi", false, nil); err != nil {
		t.Fatalf("after the remembered certificate expired: %v", err)
	}
	if b3, _ := os.ReadFile(known); string(b3) == string(b) {
		t.Error("the new certificate was not remembered")
	}

	srv.cert.Store(ptr(selfSigned(t, now.Add(-2*time.Hour), now.Add(-time.Hour))))
	_, _, _, err = get(t, &Handler{KnownHosts: filepath.Join(t.TempDir(), "k")}, srv.base()+"/doc.gmi", false, nil)
	if schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("expired certificate on first use: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestKnownHostsDamaged: a line that cannot be read fails the check
// rather than making every server new.
func TestKnownHostsDamaged(t *testing.T) {
	now := time.Now()
	srv := newFakeServer(t, selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour)), capsule)
	known := filepath.Join(t.TempDir(), "known")
	os.WriteFile(known, []byte("garbage\n"), 0o600)
	if _, _, _, err := get(t, &Handler{KnownHosts: known}, srv.base()+"/doc.gmi", false, nil); schemes.KindOf(err) != schemes.KindLocal {
		t.Errorf("%v, want a local error", err)
	}
}

func TestExplain(t *testing.T) {
	loc, _ := parse("gemini://h/find#x")
	plan, err := (&Handler{KnownHosts: "/k"}).Explain(&schemes.Request{URL: loc})
	if err != nil || len(plan) != 5 || plan[2] != "send gemini://h/find" || !strings.Contains(plan[1], "/k") {
		t.Errorf("%q %v", plan, err)
	}
}

// TestClientCertificate: a server that asks for a certificate (60
// without one) is offered Handler.Cert, and only then.
func TestClientCertificate(t *testing.T) {
	now := time.Now()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{ClientAuth: tls.RequestClientCert,
		Certificates: []tls.Certificate{selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour))}})
	if err != nil {
		t.Fatal(err)
	}
	serveEach(t, ln, func(raw net.Conn) {
		c := raw.(*tls.Conn)
		if _, err := bufio.NewReader(c).ReadString('\n'); err != nil {
			return
		}
		if peer := c.ConnectionState().PeerCertificates; len(peer) == 0 {
			io.WriteString(c, "60 Who are you?\r\n")
		} else {
			io.WriteString(c, "20 text/plain\r\nhello "+peer[0].Subject.CommonName+"\n")
		}
	})
	raw := "gemini://" + ln.Addr().String() + "/"
	known := filepath.Join(t.TempDir(), "known")
	_, _, _, err = get(t, &Handler{KnownHosts: known}, raw, false, nil)
	if schemes.KindOf(err) != schemes.KindPermission || !strings.Contains(err.Error(), "none given") {
		t.Errorf("without a certificate: %v, want a permission error saying none was given", err)
	}
	cert := selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour))
	_, body, _, err := get(t, &Handler{KnownHosts: known, Cert: &cert}, raw, false, nil)
	if err != nil || body != "hello 127.0.0.1\n" {
		t.Errorf("with a certificate: %q %v", body, err)
	}
}

// TestCertOption loads the option's PEM file, and refuses one that holds
// no certificate and key as a usage error naming the option.
func TestCertOption(t *testing.T) {
	now := time.Now()
	cert := selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour))
	keyDER, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "id.pem")
	pemText := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})
	pemText = append(pemText, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})...)
	os.WriteFile(good, pemText, 0o600)
	d := Declaration()
	built, err := d.New(d.ValuesOf(schemes.Options{"cert": good}, nil))
	if err != nil || built[0].Handler.(*Handler).Cert == nil {
		t.Errorf("good file: %v", err)
	}
	_, err = d.New(d.ValuesOf(schemes.Options{"cert": filepath.Join(dir, "none.pem")}, nil))
	if e, ok := err.(*schemes.Error); !ok || e.Kind != schemes.KindUsage {
		t.Errorf("missing file: %#v, want a usage error", err)
	}
}

// TestCancelAfterResponse: a body already buffered whole with its header
// still fails to read once the fetch is canceled.
func TestCancelAfterResponse(t *testing.T) {
	now := time.Now()
	srv := newFakeServer(t, selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour)), capsule)
	loc, _ := parse(srv.base() + "/doc.gmi")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := &Handler{KnownHosts: filepath.Join(t.TempDir(), "known")}
	resp, err := h.Fetch(ctx, &schemes.Request{URL: loc, Dialer: &transport.Dialer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	if _, err := io.ReadAll(resp.Body); schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("read after cancel: %v, want a cancellation", err)
	}
}
