package hostile

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// ftpServer answers a client's login and commands with fixed, agreeable
// replies (RFC 959), so that one step can break a rule: greet writes the
// greeting, list the data of NLST, LIST or MLSD. With silentTLS an AUTH TLS
// is accepted (234) and the handshake then never answered.
type ftpServer struct {
	greet     func(w io.Writer) error
	list      func(w io.Writer) error
	silentTLS bool
	// long names the command whose reply is longLines lines long.
	long      string
	longLines int
	// implicitTLS speaks TLS on the control connection from the start
	// (ftps://); silentData then never answers the TLS handshake of a
	// data connection.
	implicitTLS, silentData bool
	// tree, when set, is served: directories, listings and files come
	// from it (ftpTree), the rest of the session is as above.
	tree *Tree
}

// greeting is the ordinary one-line greeting.
func greeting(w io.Writer) error {
	_, err := io.WriteString(w, "220 hostile FTP\r\n")
	return err
}

// dataWait bounds the wait for the client's data connection.
const dataWait = 10 * time.Second

func (f ftpServer) serve(c *Conn) {
	var ctl net.Conn = c
	if f.implicitTLS {
		cfg, err := serverTLS()
		if err != nil {
			return
		}
		ctl = tls.Server(c, cfg)
	}
	if err := f.greet(ctl); err != nil {
		return
	}
	reply := func(s string) error {
		_, err := io.WriteString(ctl, s+"\r\n")
		return err
	}
	lr := newLineReader(ctl)
	var data net.Listener
	// A data port the client never used (the one opened for a refused
	// RETR) is closed when the next one opens or the session ends: a
	// session of a million refused transfers holds one port, not a
	// million.
	defer func() { c.unlisten(data) }()
	var tree *ftpTree
	if f.tree != nil {
		tree = &ftpTree{t: f.tree}
	}
	for {
		line, err := lr.next()
		if err != nil {
			return
		}
		verb, arg := command(line)
		if handled, err := tree.command(c, verb, arg, data, reply); handled {
			if err != nil {
				return
			}
			if verb == "LIST" || verb == "NLST" || verb == "RETR" {
				data = nil // each transfer has a data port of its own
			}
			continue
		}
		switch verb {
		case f.long:
			err = longReply(c, "250", f.longLines)
		case "USER":
			err = reply("331 password please")
		case "PASS":
			err = reply("230 logged in")
		case "PWD":
			err = reply(`257 "/" is the directory`)
		case "CWD", "TYPE", "PBSZ", "PROT":
			err = reply("200 ok")
		case "FEAT":
			err = reply("211 no features")
		case "EPSV", "PASV":
			c.unlisten(data)
			if data, err = passive(c, verb, reply); data == nil {
				return
			}
		case "NLST", "LIST", "MLSD":
			err = f.send(c, data, reply)
			data = nil
		case "AUTH":
			if !f.silentTLS {
				err = reply("502 no TLS here")
				break
			}
			if reply("234 go ahead") == nil {
				io.Copy(io.Discard, c) // the ClientHello is never answered
			}
			return
		case "QUIT":
			reply("221 bye")
			return
		default:
			err = reply("502 not implemented")
		}
		if err != nil {
			return
		}
	}
}

// passive answers EPSV or PASV (verb) with a new data port on 127.0.0.1,
// returning its listener; nil (after a 425) when none could be opened.
func passive(c *Conn, verb string, reply func(string) error) (net.Listener, error) {
	data, err := c.listen()
	if err != nil {
		reply("425 no data port")
		return nil, err
	}
	port := data.Addr().(*net.TCPAddr).Port
	if verb == "EPSV" {
		return data, reply("229 Entering Extended Passive Mode (|||" + strconv.Itoa(port) + "|)")
	}
	return data, reply(fmt.Sprintf("227 Entering Passive Mode (127,0,0,1,%d,%d)", port>>8, port&0xff))
}

// send answers a listing command: the listing over the data connection
// the client opens to data, between 150 and 226.
func (f ftpServer) send(c *Conn, data net.Listener, reply func(string) error) error {
	if data == nil {
		return reply("425 use EPSV or PASV first")
	}
	defer data.Close()
	data.(*net.TCPListener).SetDeadline(time.Now().Add(dataWait))
	dc, err := data.Accept()
	if err != nil {
		return reply("425 no data connection")
	}
	defer dc.Close()
	if !c.s.track(dc) {
		return net.ErrClosed
	}
	defer c.s.untrack(dc)
	if err := reply("150 here it comes"); err != nil {
		return err
	}
	if f.silentData {
		io.Copy(io.Discard, dc) // the ClientHello is never answered
		return reply("426 data connection closed")
	}
	if f.list != nil {
		if err := f.list(dc); err != nil {
			return err
		}
	}
	dc.Close()
	return reply("226 done")
}

// FTPLongLine serves an FTP greeting that is one line of n bytes with no
// line end ("220 xxx…"), then closes: a client that reads replies as whole
// lines holds all of it.
func FTPLongLine(n int64) func(*Conn) {
	return ftpServer{greet: func(w io.Writer) error {
		if _, err := io.WriteString(w, "220 "); err != nil {
			return err
		}
		if err := repeatByte(w, 'x', n); err != nil {
			return err
		}
		return io.EOF // close: nothing follows the line
	}}.serve
}

// longReply writes a reply of lines lines with code (RFC 959 §4.2):
// "CODE-line N" continuation lines, then "CODE end".
func longReply(w io.Writer, code string, lines int) error {
	err := writeLines(w, lines-1, func(b []byte, i int) []byte {
		b = append(b, code+"-line "...)
		return append(strconv.AppendInt(b, int64(i), 10), "\r\n"...)
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, code+" end\r\n")
	return err
}

// FTPLongReply serves an FTP session where the reply to the command verb
// (the greeting when verb is "") is lines lines long; other replies are
// ordinary.
func FTPLongReply(verb string, lines int) func(*Conn) {
	f := ftpServer{greet: greeting, long: verb, longLines: lines}
	if verb == "" {
		f.greet = func(w io.Writer) error { return longReply(w, "220", lines) }
		f.long = "-" // no command
	}
	return f.serve
}

// FTPNLST serves an ordinary FTP session whose listings (NLST, LIST,
// MLSD) are n one-letter names, "a\r\n" each: 16 M names are 48 MiB.
func FTPNLST(n int) func(*Conn) {
	return ftpServer{greet: greeting, list: func(w io.Writer) error {
		return writeLines(w, n, func(b []byte, _ int) []byte { return append(b, "a\r\n"...) })
	}}.serve
}

// FTPSilentTLS serves an FTP greeting, accepts AUTH TLS (234) and then
// never answers the TLS handshake.
func FTPSilentTLS(c *Conn) { ftpServer{greet: greeting, silentTLS: true}.serve(c) }

// FTPSSilentData serves implicit FTPS (a self-signed certificate: the
// client needs -k) whose data connections never answer their TLS
// handshake.
func FTPSSilentData(c *Conn) {
	ftpServer{greet: greeting, implicitTLS: true, silentData: true}.serve(c)
}

// Silent reads whatever the client sends and never answers: a gopher
// server that forgets to reply, an implicit FTPS server that never
// answers the handshake.
func Silent(c *Conn) { io.Copy(io.Discard, c) }
