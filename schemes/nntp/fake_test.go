package nntp

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// fakeServer is a scripted NNTP server on 127.0.0.1 for transcript tests:
// reply maps each command line received to the raw text sent back (CRLF
// line ends written by the test); it records every command. In a reply,
// "<wait>" stops the writing until gate is closed, and "<hold>" stops it
// until the client closes the connection, which is then reported on
// closed.
type fakeServer struct {
	t        *testing.T
	ln       net.Listener
	greeting string
	reply    func(s *fakeConn, cmd string) string

	tlsCfg      *tls.Config // the server side of STARTTLS (a reply of "<starttls>")
	implicitTLS bool        // nntps: TLS from the first byte
	replyMu     sync.Mutex
	mu          sync.Mutex
	cmds        []string
	conns       int
	active      []net.Conn
	gate        chan struct{}
	openGate    sync.Once
	closed      chan struct{}
}

// release lets replies stopped at "<wait>" go on.
func (f *fakeServer) release() { f.openGate.Do(func() { close(f.gate) }) }

// fakeConn is one client connection's state (authentication).
type fakeConn struct {
	authUser string
	authed   bool
}

// newFake starts a fake server; with serverTLS, the listener speaks TLS
// (nntps) and STARTTLS uses the same config.
func newFake(t *testing.T, reply func(c *fakeConn, cmd string) string, serverTLS ...*tls.Config) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var tlsCfg *tls.Config
	if len(serverTLS) > 0 {
		tlsCfg = serverTLS[0]
	}
	f := &fakeServer{t: t, ln: ln, greeting: "200 fake ready (posting ok)\r\n", reply: reply, tlsCfg: tlsCfg,
		gate: make(chan struct{}), closed: make(chan struct{}, 1)}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		f.release()
		f.mu.Lock()
		for _, c := range f.active { // connections idle in a Handler's pool
			c.Close()
		}
		f.mu.Unlock()
		wg.Wait()
	})
	acceptLoop(&wg, ln, func(c net.Conn) {
		f.mu.Lock()
		f.conns++
		f.active = append(f.active, c)
		f.mu.Unlock()
		f.serve(c)
	})
	return f
}

// acceptLoop serves each connection ln accepts with serve, in a goroutine
// of its own, until ln is closed; wg counts them all.
func acceptLoop(wg *sync.WaitGroup, ln net.Listener, serve func(net.Conn)) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); serve(c) }()
		}
	}()
}

func (f *fakeServer) serve(c net.Conn) {
	defer c.Close()
	f.mu.Lock()
	implicit := f.implicitTLS
	f.mu.Unlock()
	if implicit {
		c = tls.Server(c, f.tlsCfg)
	}
	f.mu.Lock()
	greeting := f.greeting
	f.mu.Unlock()
	io.WriteString(c, greeting)
	r := bufio.NewReader(c)
	st := &fakeConn{}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		f.mu.Lock()
		f.cmds = append(f.cmds, line)
		f.mu.Unlock()
		if line == "QUIT" {
			io.WriteString(c, "205 bye\r\n")
			return
		}
		f.replyMu.Lock() // scripts keep counters: one reply at a time
		out := f.reply(st, line)
		f.replyMu.Unlock()
		if out == "" {
			out = "500 unknown command\r\n"
		}
		if out == "<close>" {
			return
		}
		if out == "<starttls>" {
			io.WriteString(c, "382 Continue with TLS negotiation\r\n")
			c = tls.Server(c, f.tlsCfg)
			defer c.Close()
			r = bufio.NewReader(c)
			continue
		}
		if before, after, ok := strings.Cut(out, "<wait>"); ok {
			io.WriteString(c, before)
			<-f.gate
			out = after
		}
		if before, _, ok := strings.Cut(out, "<hold>"); ok {
			io.WriteString(c, before)
			c.Read(make([]byte, 1)) // until the client closes (it sends nothing more)
			select {
			case f.closed <- struct{}{}:
			default:
			}
			return
		}
		io.WriteString(c, out)
	}
}

// commands returns the commands received so far, QUIT excluded.
func (f *fakeServer) commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.cmds {
		if c != "QUIT" {
			out = append(out, c)
		}
	}
	return out
}

// connCount is the number of connections accepted.
func (f *fakeServer) connCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conns
}

// setGreeting changes the greeting of later connections.
func (f *fakeServer) setGreeting(g string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.greeting = g
}

func (f *fakeServer) port() int { return f.ln.Addr().(*net.TCPAddr).Port }

// testDialer is the transport Dialer under every fakeDialer.
var testDialer = &transport.Dialer{}

// pools holds each test Handler's idle sessions, as a fetch Client does
// for its requests (Request.Conns): a nil entry (noPool) means requests
// with no Conns, each on a connection of its own.
var pools sync.Map // *Handler → *transport.Pool

// conns is the pool of h's requests, made on first use.
func conns(h *Handler) schemes.Conns {
	v, _ := pools.LoadOrStore(h, &transport.Pool{})
	if p := v.(*transport.Pool); p != nil {
		return p
	}
	return nil
}

// noPool makes h's requests go without Conns.
func noPool(h *Handler) { pools.Store(h, (*transport.Pool)(nil)) }

// closeIdle closes the sessions kept for h's requests.
func closeIdle(h *Handler) {
	if v, ok := pools.Load(h); ok && v.(*transport.Pool) != nil {
		v.(*transport.Pool).CloseIdle()
	}
}

// fakeDialer is a transport Dialer that dials 127.0.0.1 only, whatever
// host it is asked for, with tls as its TLS settings.
type fakeDialer struct{ tls *tls.Config }

func (fakeDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	return testDialer.Dial(ctx, scheme, "127.0.0.1", port)
}

func (fakeDialer) DialDatagram(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	return testDialer.DialDatagram(ctx, scheme, "127.0.0.1", port)
}

// startTLSCalls counts fakeDialer's StartTLS calls: every TLS handshake
// must go through the Dialer.
var startTLSCalls atomic.Int64

func (d fakeDialer) StartTLS(ctx context.Context, c net.Conn, scheme, host string, opts ...schemes.TLSOption) (net.Conn, error) {
	startTLSCalls.Add(1)
	td := *testDialer
	td.TLS = d.tls
	return td.StartTLS(ctx, c, scheme, host, opts...)
}

// recTrace records the trace.
type recTrace struct {
	mu      sync.Mutex
	lines   []string
	secrets []string
}

func (r *recTrace) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, sec := range r.secrets {
		s = strings.ReplaceAll(s, sec, "****")
	}
	r.lines = append(r.lines, s)
}
func (r *recTrace) Sent(l string)     { r.add("> " + l) }
func (r *recTrace) Received(l string) { r.add("< " + l) }
func (r *recTrace) Info(l string)     { r.add("* " + l) }
func (r *recTrace) Secret(s string) {
	if s != "" {
		r.mu.Lock()
		r.secrets = append(r.secrets, s)
		r.mu.Unlock()
	}
}
func (r *recTrace) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

// locate parses raw into the package's Locator.
func locate(t *testing.T, raw string) schemes.Locator {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	var loc schemes.Locator
	if u.Scheme == "news" {
		loc, err = ParseNews(u)
	} else {
		loc, err = Parse(u)
	}
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// fetchAll fetches raw with h and returns the body, or for a listing
// its entries, each read to the end.
func fetchAll(t *testing.T, h *Handler, raw string, tr schemes.Trace, creds schemes.Credentials) ([]byte, *schemes.Response, error) {
	b, _, resp, err := fetchEntries(t, h, raw, tr, creds)
	return b, resp, err
}

// fetchEntries fetches raw with h and reads the body, or the entries of a
// listing (a non-nil slice), to the end.
func fetchEntries(t *testing.T, h *Handler, raw string, tr schemes.Trace, creds schemes.Credentials) ([]byte, []schemes.Entry, *schemes.Response, error) {
	t.Helper()
	return fetchLocator(t, h, locate(t, raw), tr, creds)
}

// fetchLocator is fetchEntries of loc.
func fetchLocator(t *testing.T, h *Handler, loc schemes.Locator, tr schemes.Trace, creds schemes.Credentials) ([]byte, []schemes.Entry, *schemes.Response, error) {
	t.Helper()
	if tr == nil {
		tr = &recTrace{}
	}
	resp, err := h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: fakeDialer{}, Conns: conns(h), Trace: tr, Credentials: creds})
	if err != nil {
		return nil, nil, nil, err
	}
	if resp.Listing != nil {
		if resp.Body != nil {
			t.Error("a response with both Body and Listing")
		}
		entries, err := schemes.ReadAll(resp.Listing)
		return nil, entries, resp, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return b, nil, resp, err
}

// newINNFake is a fake server that announces capabilities as INN does and
// answers each command in replies with its fixed text (others get none).
func newINNFake(t *testing.T, replies map[string]string) *fakeServer {
	return newFake(t, func(_ *fakeConn, cmd string) string {
		if cmd == "CAPABILITIES" {
			return capsINN
		}
		return replies[cmd]
	})
}

// capsINN is a CAPABILITIES reply like INN's.
const capsINN = "101 Capability list:\r\nVERSION 2\r\nREADER\r\nOVER\r\nAUTHINFO USER\r\nLIST ACTIVE\r\n.\r\n"

// testCert makes a self-signed certificate for 127.0.0.1 and returns the
// server config and a client config that trusts it.
func testCert(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	return server, &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
