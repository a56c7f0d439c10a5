package ftp

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeFTP is a scripted FTP server on 127.0.0.1 for transcript tests: it
// records every command line and answers from a small model of a server
// (files by name, any CWD accepted), unless replies overrides a command.
type fakeFTP struct {
	t       *testing.T
	ln      net.Listener
	files   map[string]string // name (last component) -> content
	listing string            // LIST output
	mlsd    string            // MLSD output; "" means MLSD is not in FEAT
	nlst    string
	// nlstGen, when set, writes the NLST listing in place of nlst, as it
	// goes: a listing larger than any the test could hold.
	nlstGen func(io.Writer)
	noEPSV  bool
	// epsvAnswered, when above 0, is how many EPSV commands a session
	// answers; it is silent to the ones after (and reads on).
	epsvAnswered int
	// readsDuringTransfer reads the command that follows a RETR during
	// its transfer and refuses it with 500, as pure-ftpd does; once.
	readsDuringTransfer bool
	greeting            string
	// dropsEarly drops the commands that arrived with the one it read,
	// unanswered; refusesEarly answers them "500 Unknown command":
	// servers that take commands one at a time (pipeline.go).
	dropsEarly, refusesEarly bool
	// replies overrides the answer to an exact command line. "CLOSE"
	// closes the control connection instead of answering.
	replies map[string]string
	// afterData, when set, replaces the 226 sent after a transfer.
	afterData string
	// open150, when set, writes the 150 reply to RETR of a file of size
	// bytes (vsftpd and proftpd add "(N bytes)", pure-ftpd does not).
	open150 func(name string, size int) string
	// truncate sends only this many bytes of a file (then the usual end).
	truncate int
	// tls, when set, serves AUTH TLS, PBSZ and PROT P; with implicit the
	// whole control connection is TLS from the start (ftps). Protected
	// data connections must resume the control connection's session.
	tls      *tls.Config
	implicit bool
	resumed  int // protected data connections that resumed it
	// closeMid closes the control and data connections after sending
	// this many bytes of a file.
	closeMid int
	// resetMid resets the data connection (TCP RST) after sending this
	// many bytes of a file, and sends no reply.
	resetMid int
	// stallAt sends this many bytes of a file, then holds the data
	// connection open and silent until the test ends.
	stallAt int
	// listHold sends this many bytes of a LIST or MLSD listing, then
	// waits for release (or the test's end) before the rest.
	listHold int
	release  chan struct{}
	// mlst offers MLST in FEAT and answers it from files (type=file) and
	// dirs (type=dir; "" is the current directory).
	mlst bool
	dirs map[string]bool

	// dropServed closes a control connection, without a reply, at its
	// first command after a transfer: every session found dead when
	// reused from the pool (counted in drops).
	dropServed bool
	drops      int

	once     sync.Once
	mu       sync.Mutex
	cmds     []string
	conns    int
	sessions []net.Conn // control connections, to drop them (dropIdle)
}

func newFake(t *testing.T) *fakeFTP { return newFakeOn(t, "127.0.0.1:0") }

// newFakeOn is newFake listening on addr ("[::1]:0" for IPv6); it skips the
// test when the address is not available on this machine.
func newFakeOn(t *testing.T, addr string) *fakeFTP {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	f := &fakeFTP{t: t, ln: ln, files: map[string]string{}, replies: map[string]string{}, truncate: -1, closeMid: -1,
		resetMid: -1, stallAt: -1, listHold: -1, release: make(chan struct{}), dirs: map[string]bool{}}
	t.Cleanup(func() { ln.Close() })
	return f
}

func (f *fakeFTP) port() int { return f.ln.Addr().(*net.TCPAddr).Port }

func (f *fakeFTP) url(path string) string {
	f.once.Do(func() { go f.serve() }) // configured by now: start serving
	return fmt.Sprintf("ftp://%s/%s", f.ln.Addr(), path)
}

// reply overrides the answer to line, also while serving.
func (f *fakeFTP) reply(line, rp string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies[line] = rp
}

func (f *fakeFTP) commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

func (f *fakeFTP) resumedCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resumed
}

func (f *fakeFTP) connCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conns
}

func (f *fakeFTP) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.mu.Lock()
		f.conns++
		f.mu.Unlock()
		go f.session(c)
	}
}

// dropIdle does what a server does to control connections idle for too
// long: it sends msg (when not "") and closes them.
func (f *fakeFTP) dropIdle(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.sessions {
		if msg != "" {
			fmt.Fprintf(c, "%s\r\n", msg)
		}
		c.Close()
	}
	f.sessions = nil
}

func (f *fakeFTP) session(c net.Conn) {
	defer func() { c.Close() }()
	f.mu.Lock()
	f.sessions = append(f.sessions, c)
	f.mu.Unlock()
	if f.implicit {
		c = tls.Server(c, f.tls)
	}
	prot := false
	r := bufio.NewReader(c)
	w := func(s string) { fmt.Fprintf(c, "%s\r\n", s) }
	g := f.greeting
	if g == "" {
		g = "220 fake ready"
	}
	w(g)
	if !strings.HasPrefix(g, "220") {
		return
	}
	var dl net.Listener
	var rest int64
	lastRETR := "" // the name of a RETR refused by the command before
	epsvs := 0     // EPSV commands of the session
	defer func() {
		if dl != nil {
			dl.Close()
		}
	}()
	accept := func() net.Conn {
		if dl == nil {
			w("425 no data connection")
			return nil
		}
		dc, err := dl.Accept()
		dl.Close()
		dl = nil
		if err != nil {
			w("425 no data connection")
			return nil
		}
		if prot {
			return tls.Server(dc, f.tls)
		}
		return dc
	}
	opening := "150 Opening data connection"
	served := false // a transfer ended: the session may have been pooled since
	send := func(data string, hold int) {
		defer func() { opening = "150 Opening data connection" }()
		dc := accept()
		if dc == nil {
			return
		}
		w(opening)
		f.mu.Lock()
		during := f.readsDuringTransfer
		f.readsDuringTransfer = false
		f.mu.Unlock()
		if during {
			if line, err := r.ReadString('\n'); err == nil {
				f.mu.Lock()
				f.cmds = append(f.cmds, strings.TrimRight(line, "\r\n"))
				f.mu.Unlock()
				w("500 Unknown command")
			}
		}
		if tc, ok := dc.(*tls.Conn); ok {
			if err := tc.Handshake(); err != nil {
				dc.Close()
				w("425 TLS handshake failed")
				return
			}
			// As vsftpd's require_ssl_reuse: a data connection must
			// resume the control connection's TLS session.
			if !tc.ConnectionState().DidResume {
				dc.Close()
				w("522 SSL connection failed: session reuse required")
				return
			}
			f.mu.Lock()
			f.resumed++
			f.mu.Unlock()
		}
		var err error
		if hold >= 0 {
			_, err = dc.Write([]byte(data[:hold]))
			select {
			case <-f.release:
			case <-f.t.Context().Done():
			}
			data = data[hold:]
		}
		if err == nil {
			_, err = dc.Write([]byte(data))
		}
		dc.Close()
		if err != nil {
			// The client closed the data connection before the end.
			w("426 Connection closed; transfer aborted.")
			return
		}
		if f.afterData != "" {
			w(f.afterData)
		} else {
			w("226 Transfer complete")
		}
		served = true
	}
	early := false // the line read came with the one before
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		wasEarly := early
		early = r.Buffered() > 0
		if f.dropsEarly && early {
			r.Discard(r.Buffered())
			early = false
		}
		if f.refusesEarly && wasEarly {
			f.mu.Lock()
			f.cmds = append(f.cmds, line)
			f.mu.Unlock()
			w("500 Unknown command")
			continue
		}
		refused := lastRETR
		lastRETR = ""
		f.mu.Lock()
		if served && f.dropServed {
			f.drops++
			f.mu.Unlock()
			return
		}
		f.cmds = append(f.cmds, line)
		rp, ok := f.replies[line]
		f.mu.Unlock()
		if ok {
			if strings.HasPrefix(line, "RETR ") {
				lastRETR = strings.TrimPrefix(line, "RETR ")
			}
			if rp == "CLOSE" {
				return
			}
			w(rp)
			if strings.HasPrefix(rp, "421") {
				return
			}
			continue
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "AUTH":
			if f.tls == nil || arg != "TLS" {
				w("504 AUTH not supported")
				continue
			}
			w("234 Proceed with negotiation.")
			c = tls.Server(c, f.tls)
			r = bufio.NewReader(c)
		case "PBSZ":
			w("200 PBSZ=0")
		case "PROT":
			prot = arg == "P"
			w("200 Protection level set")
		case "USER":
			w("331 Password required for " + arg)
		case "PASS":
			w("230 Logged in")
		case "PWD":
			w(`257 "/home/u" is the current directory`)
		case "CWD":
			// Any directory exists, except a file, and a name RETR just
			// refused unless dirs lists it: that one was not there.
			_, file := f.files[arg]
			if file || refused != "" && refused == arg && !f.dirs[arg] {
				w("550 " + arg + ": Not a directory")
				continue
			}
			w("250 OK")
		case "TYPE":
			w("200 Type set to " + arg)
		case "SIZE":
			if s, ok := f.files[arg]; ok {
				w("213 " + strconv.Itoa(len(s)))
			} else {
				w("550 Could not get file size.")
			}
		case "MDTM":
			if _, ok := f.files[arg]; ok {
				w("213 20260102030405")
			} else {
				w("550 No such file")
			}
		case "FEAT":
			w("211-Features:")
			w(" EPSV")
			w(" SIZE")
			if f.mlsd != "" {
				w(" MLSD")
			}
			if f.mlst {
				w(" MLST type*;size*;modify*;")
			}
			w("211 End")
		case "EPSV", "PASV":
			if verb == "EPSV" && f.noEPSV {
				w("500 Unknown command")
				continue
			}
			if verb == "EPSV" && f.epsvAnswered > 0 {
				if epsvs++; epsvs > f.epsvAnswered {
					continue
				}
			}
			var err error
			dl, err = net.Listen("tcp", net.JoinHostPort(c.LocalAddr().(*net.TCPAddr).IP.String(), "0"))
			if err != nil {
				w("425 cannot listen")
				continue
			}
			p := dl.Addr().(*net.TCPAddr).Port
			if verb == "EPSV" {
				w(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", p))
			} else {
				// An address elsewhere: the client must ignore it.
				w(fmt.Sprintf("227 Entering Passive Mode (10,9,8,7,%d,%d)", p>>8, p&255))
			}
		case "REST":
			rest, _ = strconv.ParseInt(arg, 10, 64)
			w("350 Restarting at " + arg)
		case "RETR":
			s, ok := f.files[arg]
			if !ok {
				if dl != nil {
					dl.Close()
					dl = nil
				}
				w("550 " + arg + ": No such file or directory")
				lastRETR = arg
				continue
			}
			s = s[min(int(rest), len(s)):]
			rest = 0
			if f.closeMid >= 0 {
				dc := accept()
				w("150 Opening data connection")
				dc.Write([]byte(s[:f.closeMid]))
				dc.Close()
				return
			}
			if f.resetMid >= 0 {
				dc := accept()
				w("150 Opening data connection")
				dc.Write([]byte(s[:f.resetMid]))
				dc.(*net.TCPConn).SetLinger(0)
				dc.Close()
				continue
			}
			if f.stallAt >= 0 {
				dc := accept()
				w("150 Opening data connection")
				dc.Write([]byte(s[:f.stallAt]))
				<-f.t.Context().Done()
				dc.Close()
				return
			}
			if f.truncate >= 0 {
				s = s[:f.truncate]
			}
			if f.open150 != nil {
				opening = f.open150(arg, len(f.files[arg]))
			}
			send(s, -1)
		case "LIST":
			if arg != "" && arg != "-a" {
				w("550 No such file.")
				continue
			}
			send(f.listing, f.listHold)
		case "MLSD":
			send(f.mlsd, f.listHold)
		case "NLST":
			if f.nlstGen == nil {
				send(f.nlst, -1)
				continue
			}
			if dc := accept(); dc != nil {
				w("150 Here comes the directory listing.")
				f.nlstGen(dc)
				dc.Close()
				w("226 Directory send OK.")
			}
		case "MLST":
			if s, ok := f.files[arg]; ok {
				w("250-Listing " + arg)
				w(fmt.Sprintf(" type=file;size=%d;modify=20260102030405; %s", len(s), arg))
				w("250 End")
			} else if f.dirs[arg] {
				w("250-Listing " + arg)
				w(" type=dir;modify=20250607080910; " + arg)
				w("250 End")
			} else {
				w("550 " + arg + ": No such file or directory")
			}
		case "NOOP":
			w("200 NOOP ok.")
		case "ABOR":
			// As vsftpd once the transfer has ended (it failed on the
			// closed data connection: 426 came first).
			w("225 No transfer to ABOR.")
		case "QUIT":
			w("221 Goodbye")
			return
		default:
			w("502 Command not implemented")
		}
	}
}

// testTLS returns a server configuration with a self-signed certificate for
// 127.0.0.1 and a client configuration that trusts it.
func testTLS(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	return server, &tls.Config{RootCAs: pool}
}
