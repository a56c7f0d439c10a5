package retryfake

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
)

// FTP is an FTP server of /f (Body; SIZE, MDTM, EPSV, REST and LIST
// answered, any login and directory accepted; / lists f, for a mirror)
// whose first times attempts fail with fault: for Busy the first times
// connections, for Cut and Stall the first times RETRs.
func FTP(t testing.TB, fault Fault, times int) *Server {
	ln := listen(t)
	s := &Server{URL: "ftp://" + ln.Addr().String() + "/f", fault: fault, times: times}
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go s.serve(ln, func(c net.Conn) { s.session(c, done) })
	return s
}

// session answers one control connection; done ends a stalled one.
func (s *Server) session(c net.Conn, done <-chan struct{}) {
	defer c.Close()
	say := func(format string, args ...any) { fmt.Fprintf(c, format+"\r\n", args...) }
	if s.fault == Busy && s.attempt(0) {
		say("421 Too many users, try again in 1 second")
		return
	}
	say("220 retryfake ready")
	r := bufio.NewReader(c)
	var dl net.Listener
	defer func() {
		if dl != nil {
			dl.Close()
		}
	}()
	var rest int64
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch strings.ToUpper(verb) {
		case "USER":
			say("331 Password required")
		case "PASS":
			say("230 Logged in")
		case "PWD":
			say(`257 "/" is the current directory`)
		case "CWD":
			say("250 OK")
		case "TYPE":
			say("200 Type set")
		case "FEAT":
			say("211-Features:\r\n EPSV\r\n SIZE\r\n MDTM\r\n REST STREAM\r\n211 End")
		case "SIZE":
			say("213 %d", len(Body))
		case "MDTM":
			say("213 %s", ModTime.Format("20060102150405"))
		case "REST":
			rest, _ = strconv.ParseInt(arg, 10, 64)
			say("350 Restarting at %d", rest)
		case "EPSV":
			if dl != nil {
				dl.Close()
			}
			if dl, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
				say("425 Cannot open a data port")
				continue
			}
			say("229 Entering Extended Passive Mode (|||%d|)", dl.Addr().(*net.TCPAddr).Port)
		case "RETR":
			fails := s.fault != Busy && s.attempt(rest)
			if !s.retr(c, dl, rest, fails, say, done) {
				return
			}
			dl, rest = nil, 0
		case "LIST":
			s.list(dl, say)
			dl = nil
		case "QUIT":
			say("221 Bye")
			return
		default:
			say("502 Command not implemented")
		}
	}
}

// retr sends Body from rest on the data connection dl accepts: all of
// it, or, when the attempt fails, half of what is left, and then it cuts
// (false: the control connection closes too) or stalls until the client
// leaves or done.
func (s *Server) retr(c net.Conn, dl net.Listener, rest int64, fails bool, say func(string, ...any), done <-chan struct{}) bool {
	dc := accept(dl, say)
	if dc == nil {
		return true
	}
	defer dc.Close()
	say("150 Opening BINARY mode data connection for f (%d bytes)", int64(len(Body))-rest)
	data := Body[rest:]
	if !fails {
		io.WriteString(dc, data)
		dc.Close()
		say("226 Transfer complete")
		return true
	}
	io.WriteString(dc, data[:len(data)/2])
	if s.fault == Stall {
		gone := make(chan struct{})
		go func() { io.Copy(io.Discard, c); close(gone) }()
		select {
		case <-gone:
		case <-done:
		}
	}
	return false
}

// list sends the listing of / (f, as ls -l shows it) on the data
// connection dl accepts; it never fails nor counts.
func (s *Server) list(dl net.Listener, say func(string, ...any)) {
	dc := accept(dl, say)
	if dc == nil {
		return
	}
	say("150 Here comes the directory listing")
	fmt.Fprintf(dc, "-rw-r--r--    1 ftp      ftp         %d %s f\r\n", len(Body), ModTime.Format("Jan 02  2006"))
	dc.Close()
	say("226 Directory send OK")
}

// accept takes the data connection dl (EPSV's port) waits for, and closes
// dl; nil, said with a 425, when there is none.
func accept(dl net.Listener, say func(string, ...any)) net.Conn {
	if dl == nil {
		say("425 Use EPSV first")
		return nil
	}
	dc, err := dl.Accept()
	dl.Close()
	if err != nil {
		say("425 No data connection")
		return nil
	}
	return dc
}
