package hostile

import (
	"io"
	"net"
	"testing"

	"github.com/urlget/urlget/internal/await"
)

// TestServer: a fake counts its connections, records what clients send,
// and Close returns while a silent fake still holds a connection open.
func TestServer(t *testing.T) {
	s, err := Start(Silent)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", s.HostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "hello\r\n")
	// Bounded; the check after Close says what was received.
	await.Poll(func() bool { return s.Received() != "" })
	if err := s.Close(); err != nil {
		t.Error(err)
	}
	if n, got := s.Conns(), s.Received(); n != 1 || got != "hello\r\n" {
		t.Errorf("%d connections, received %q", n, got)
	}
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Error("the connection is still open after Close")
	}
}

// TestFakesWire: what the line-generating fakes send, at a small size.
func TestFakesWire(t *testing.T) {
	for _, tt := range []struct {
		name      string
		serve     func(*Conn)
		send, get string
	}{
		{"gopher menu", GopherMenu(2), "\r\n", "0item 0\t/0\t127.0.0.1\t70\r\n0item 1\t/1\t127.0.0.1\t70\r\n.\r\n"},
		{"gopher+ cut", GopherPlusCut, "x\t+\r\n", "+-1\r\nthe first line\r\nthe second line\r\n"},
		{"gopher body", GopherBody(3), "x\r\n", "\xa5\xa5\xa5"},
		{"ftp long reply", FTPLongReply("", 3), "QUIT\r\n", "220-line 0\r\n220-line 1\r\n220 end\r\n221 bye\r\n"},
		{"ftp long line", FTPLongLine(5), "", "220 xxxxx"},
		{"smtp greeting", SMTPGreeting(2), "EHLO x\r\n",
			"220-hostile greeting line 0\r\n220-hostile greeting line 1\r\n220 hostile ESMTP\r\n421 closing\r\n"},
		{"nntp groups", NNTPGroups(2), "LIST ACTIVE\r\nQUIT\r\n",
			"200 hostile news server\r\n215 groups follow\r\nhostile.0 1 1 y\r\nhostile.1 1 1 y\r\n.\r\n205 bye\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := wire(t, tt.serve, tt.send); got != tt.get {
				t.Errorf("got %q; want %q", got, tt.get)
			}
		})
	}
}

// wire starts serve, sends send on a connection to it, and returns all
// the fake answered until it closed the connection.
func wire(t *testing.T, serve func(*Conn), send string) string {
	t.Helper()
	s, err := Start(serve)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := net.Dial("tcp", s.HostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, send)
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(got)
}
