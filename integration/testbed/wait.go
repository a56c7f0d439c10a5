package testbed

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Addr returns "127.0.0.1:<port>".
func Addr(port int) string { return net.JoinHostPort(Host, strconv.Itoa(port)) }

// Probe checks a freshly dialed connection to a server; it returns nil when
// the server answered as expected.
type Probe func(conn net.Conn) error

// ReadPrefix returns a Probe that optionally writes send and then expects the
// reply to begin with want (compared byte for byte).
func ReadPrefix(send, want string) Probe {
	return func(c net.Conn) error {
		if send != "" {
			if _, err := c.Write([]byte(send)); err != nil {
				return err
			}
		}
		buf := make([]byte, len(want))
		if _, err := ioReadFull(c, buf); err != nil {
			return fmt.Errorf("reading %q: %w (got %q)", want, err, buf)
		}
		if string(buf) != want {
			return fmt.Errorf("got %q, want prefix %q", buf, want)
		}
		return nil
	}
}

// ReadContains returns a Probe that writes send and reads until EOF (or
// limit bytes) expecting the reply to contain want.
func ReadContains(send, want string) Probe {
	return func(c net.Conn) error {
		if _, err := c.Write([]byte(send)); err != nil {
			return err
		}
		var got bytes.Buffer
		r := bufio.NewReader(c)
		buf := make([]byte, 4096)
		for got.Len() < 1<<20 {
			n, err := r.Read(buf)
			got.Write(buf[:n])
			if strings.Contains(got.String(), want) {
				return nil
			}
			if err != nil {
				break
			}
		}
		return fmt.Errorf("reply %.200q does not contain %q", got.String(), want)
	}
}

// TLSReadPrefix returns a Probe that makes a TLS handshake, verifying the
// server against the PEM certificate in caFile (read when the probe runs,
// since the server writes it at start), then expects the reply to begin
// with want.
func TLSReadPrefix(caFile, want string) Probe {
	return OverTLS(caFile, ReadPrefix("", want))
}

// OverTLS returns a Probe that makes a TLS handshake, verifying the server
// against the PEM certificates in caFile (read when the probe runs), then
// runs p on the TLS connection: for servers that speak only when asked,
// such as gopher's behind stunnel.
func OverTLS(caFile string, p Probe) Probe {
	return func(c net.Conn) error {
		pool, err := CertPool(caFile)
		if err != nil {
			return err
		}
		tc := tls.Client(c, &tls.Config{RootCAs: pool, ServerName: Host, MinVersion: tls.VersionTLS12})
		if err := tc.Handshake(); err != nil {
			return err
		}
		return p(tc)
	}
}

// CertPool returns a pool of the PEM certificates in file (the test CA,
// or an FTPS server's published certificate).
func CertPool(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no certificate in %s", file)
	}
	return pool, nil
}

func ioReadFull(c net.Conn, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := c.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// CheckOnce dials addr over TCP and runs probe with a deadline of
// timeout.
func CheckOnce(addr string, probe Probe, timeout time.Duration) error {
	return checkOnce("tcp", addr, probe, timeout)
}

// Run runs the check once: it dials the endpoint (over UDP for a UDP
// check: the probe's request and reply are datagrams) and runs the probe.
func (c Check) Run(timeout time.Duration) error {
	network := "tcp"
	if c.UDP {
		network = "udp"
	}
	return checkOnce(network, Addr(c.Port), c.Probe, timeout)
}

func checkOnce(network, addr string, probe Probe, timeout time.Duration) error {
	c, err := net.DialTimeout(network, addr, timeout)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	if probe == nil {
		return nil
	}
	return probe(c)
}

// WaitHealthy polls addr with probe (a nil probe only dials) until it
// succeeds or ctx ends; it returns the last error on timeout.
func WaitHealthy(ctx context.Context, addr string, probe Probe) error {
	var last error
	for {
		if last = CheckOnce(addr, probe, 5*time.Second); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Check is one service's health probe.
type Check struct {
	// Service is the compose service name.
	Service string
	// Name describes the endpoint (differs from Service for nginx's two ports
	// and telnetd's line service).
	Name string
	// Port is the TCP port on Host.
	Port int
	// Probe checks the first bytes the server sends.
	Probe Probe
	// UDP says Port is a UDP port: the probe writes one datagram and
	// reads the first of the reply.
	UDP bool
}

// prosperoProbe is one ARDP packet (header length 9, CID 0x1234, packet 1
// of 1, prospero-notes §2) holding a bare VERSION line, which the server
// answers with its version first; the reply is one packet ("03" and the
// CID).
const prosperoProbe = "\x09\x12\x34\x00\x01\x00\x01\x00\x00VERSION\n"

// waisProbe is an empty-seed search of the database "demo": the 25-byte
// header (msg_len 32, type z, version 2, "wais", blanks, checksum 0) and
// the Search APDU of wais-notes §4 with no SeedWords: F = 22, PDU 22, the
// set bounds 30/5000/30, ReplaceIndicator, ResultSetName "",
// DatabaseNames "demo", QueryType "3", then the extension (tag 99) with
// DateFactor 1 and MaxDocumentsRetrieved 40.
const waisProbe = "0000000032z2wais        0" +
	"\x00\x16\x16\x00\x00\x1e\x00\x13\x88\x00\x00\x1e\x01\x11\x00\x12\x04demo\x14\x013" +
	"\x63\x06\x6f\x01\x01\x72\x01\x28"

// yazProbe is a Z39.50 InitializeRequest ([20]): protocolVersion 1-3,
// options search and present, preferredMessageSize and
// exceptionalRecordSize 65536; a server answers an InitializeResponse,
// whose first octet is [21] constructed, 0xb5.
const yazProbe = "\xb4\x12\x83\x02\x05\xe0\x84\x02\x06\xc0\x85\x03\x01\x00\x00\x86\x03\x01\x00\x00"

// Checks lists the health probe of every endpoint of the stack (the same
// checks as the compose health checks).
var Checks = []Check{
	{Service: Vsftpd, Name: "vsftpd", Port: VsftpdPort, Probe: ReadPrefix("", "220")},
	{Service: VsftpdFTPS, Name: "vsftpd-ftps", Port: VsftpdFTPSPort, Probe: TLSReadPrefix(FTPSCertFile(VsftpdFTPS), "220")},
	{Service: Proftpd, Name: "proftpd", Port: ProftpdPort, Probe: ReadPrefix("", "220")},
	{Service: Pureftpd, Name: "pure-ftpd", Port: PureftpdPort, Probe: ReadPrefix("", "220")},
	{Service: Nginx, Name: "http", Port: HTTPPort, Probe: ReadPrefix("HEAD / HTTP/1.0\r\n\r\n", "HTTP/1.1 200")},
	{Service: Nginx, Name: "https", Port: HTTPSPort, Probe: nil}, // TLS: see the smoke test for a handshake
	// A cache in front of replicas a test starts: 502 without them.
	{Service: Nginx, Name: "gateway-cache", Port: GatewayCachePort, Probe: nil},
	{Service: Gophernicus, Name: "gophernicus", Port: GophernicusPort, Probe: ReadContains("\r\n", "0LF text file\t/text/lf.txt\t127.0.0.1\t7070\r\n")},
	// Over TLS: the root menu naming the TLS port.
	{Service: GophernicusTLS, Name: "gophernicus-tls", Port: GophersPort, Probe: OverTLS(CACertFile(), ReadContains("\r\n", "0LF text file\t/text/lf.txt\t127.0.0.1\t7443\r\n"))},
	{Service: Gemini, Name: "gemini", Port: GeminiPort, Probe: nil},            // TLS: the compose health check asks for the capsule
	{Service: Gemini, Name: "gemini-other", Port: GeminiOtherPort, Probe: nil}, // the same, with another certificate
	{Service: Pygopherd, Name: "pygopherd", Port: PygopherdPort, Probe: ReadPrefix("/about.txt\t+\r\n", "+44\r\nAbout")},
	{Service: GopherPlus, Name: "gopherplus", Port: GopherPlusPort, Probe: ReadPrefix("/plus/about.txt\t+\r\n", "+46\r\nAbout")},
	{Service: INN, Name: "nntp", Port: NNTPPort, Probe: ReadPrefix("", "200")},
	{Service: Telnetd, Name: "telnet", Port: TelnetPort, Probe: ReadPrefix("", "\xff\xfb\x25")},
	{Service: Telnetd, Name: "line", Port: LinePort, Probe: ReadPrefix("", "urlget line service ready\r\n")},
	// Without credentials tinyproxy answers 407 and connects nowhere.
	{Service: Tinyproxy, Name: "tinyproxy", Port: ProxyPort, Probe: ReadPrefix("GET http://"+Addr(ProxyPort)+"/ HTTP/1.0\r\n\r\n", "HTTP/1.0 407")},
	{Service: SMTP, Name: "smtp", Port: SMTPPort, Probe: ReadPrefix("", "220")},
	{Service: Finger, Name: "efingerd", Port: FingerPort, Probe: ReadContains("plan\r\n", "to answer byte for byte.")},
	// urlget's WAIS server: an empty-seed search of "demo" (the 25-byte
	// header and a Search APDU, wais-notes §1 and §4), answered with a
	// header whose msg_len starts with zeros.
	{Service: WAIS, Name: "wais", Port: WAISPort, Probe: ReadPrefix(waisProbe, "00000")},
	// urlget's Prospero server, over UDP: a bare VERSION answered.
	{Service: Prospero, Name: "prospero", Port: ProsperoPort, Probe: ReadPrefix(prosperoProbe, "\x03\x12\x34VERSION 5 "), UDP: true},
	// toxiproxy's API; its compose health check also wants every proxy
	// listening (toxiproxyd -probe).
	{Service: Toxiproxy, Name: "toxiproxy", Port: ToxiproxyAPIPort, Probe: ReadPrefix("GET /version HTTP/1.0\r\n\r\n", "HTTP/1.0 200")},
	{Service: SFTP, Name: "sftp", Port: SFTPPort, Probe: ReadPrefix("", "SSH-2.0")},
	{Service: Yaz, Name: "yaz", Port: YazPort, Probe: ReadPrefix(yazProbe, "\xb5")},
	// zebrasrv listens once its register is built: the same Init.
	{Service: Zebra, Name: "zebra", Port: ZebraPort, Probe: ReadPrefix(yazProbe, "\xb5")},
	// An anonymous bind (RFC 4511 §4.2, message 1) answered with success.
	{Service: Slapd, Name: "ldap", Port: LDAPPort, Probe: ReadPrefix(ldapBind, ldapBindOK)},
	{Service: Slapd, Name: "ldaps", Port: LDAPSPort, Probe: OverTLS(CACertFile(), ReadPrefix(ldapBind, ldapBindOK))},
}

// ldapBind is an anonymous LDAPv3 simple bind request in BER, message
// ID 1; ldapBindOK starts its BindResponse with resultCode success.
const (
	ldapBind   = "\x30\x0c\x02\x01\x01\x60\x07\x02\x01\x03\x04\x00\x80\x00"
	ldapBindOK = "\x30\x0c\x02\x01\x01\x61\x07\x0a\x01\x00"
)
