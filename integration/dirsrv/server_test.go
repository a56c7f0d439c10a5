package dirsrv

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTokensRoundTrip(t *testing.T) {
	for _, tok := range []string{"plain", "", "with space.txt", "/about.txt", "it's", "a''b", "line\nbreak\r", "\x00\xff bin", "52 bytes", "x+y,z"} {
		var b bytes.Buffer
		line(&b, "CMD", tok, "tail")
		lines, err := readLines(b.Bytes())
		if err != nil || len(lines) != 1 || len(lines[0]) != 3 || lines[0][1] != tok || lines[0][2] != "tail" {
			t.Errorf("%q written %q read %q (%v)", tok, b.String(), lines, err)
		}
	}
	// The notes' §10 forms: quoting from the first special byte on.
	var b bytes.Buffer
	line(&b, "LINK  L EXTERNAL", "with space.txt", "0/about.txt", "52 bytes", "")
	if want := "LINK  L EXTERNAL with' space.txt' 0'/about.txt' 52' bytes' ''\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// start runs a server on two random UDP ports over a fresh tree.
func start(t *testing.T) (*Server, net.Conn) {
	t.Helper()
	root := t.TempDir()
	if err := WriteTree(root); err != nil {
		t.Fatal(err)
	}
	main, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	alt, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Root: root, Host: "127.0.0.1", Port: main.LocalAddr().(*net.UDPAddr).Port, AltPort: alt.LocalAddr().(*net.UDPAddr).Port}
	go s.Serve(main, false)
	go s.Serve(alt, true)
	t.Cleanup(func() { s.Close() })
	c, err := net.Dial("udp", main.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return s, c
}

func packet1(cid byte, text string) []byte {
	return append([]byte{0x09, 0x58, cid, 0, 1, 0, 1, 0, 0}, text...)
}

func read(t *testing.T, c net.Conn) []byte {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 2048)
	n, err := c.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf[:n]
}

// TestWindowsAndHeaders: the 44,800-byte file as the capture of notes §10
// shows it: 16 packets, the 16th asking for an ACK, nothing more until
// the ACK; then 17–32 with the total and rcvd-thru 1, and so on; the
// contents de-quote to the file.
func TestWindowsAndHeaders(t *testing.T) {
	s, c := start(t)
	c.Write(packet1(0xae, "VERSION 5 t\nGET-OBJECT-INFO CONTENTS ASCII '"+s.Root+"/"+BigFile+"' 0\n"))
	var data []byte
	for i := 1; i <= 16; i++ {
		p := read(t, c)
		switch {
		case i == 1 && !bytes.HasPrefix(p, []byte{0x07, 0x58, 0xae, 0, 1, 0, 0}):
			t.Fatalf("packet 1 header % x", p[:7])
		case i == 16 && !bytes.HasPrefix(p, []byte{0x0c, 0x58, 0xae, 0, 16, 0, 0, 0, 1, 0, 0, 0x80}):
			t.Fatalf("packet 16 header % x", p[:12])
		}
		data = append(data, p[p[0]&0x3f:]...)
	}
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if n, err := c.Read(make([]byte, 2048)); err == nil {
		t.Fatalf("a packet (%d bytes) before the ACK", n)
	}
	for _, ack := range []uint16{16, 32} {
		c.Write([]byte{0x09, 0x58, 0xae, 0, 0, 0, 0, byte(ack >> 8), byte(ack)})
		for i := int(ack) + 1; i <= min(int(ack)+16, 36); i++ {
			p := read(t, c)
			if p[3] != 0 || int(p[4]) != i || p[6] != 36 {
				t.Fatalf("packet %d header % x", i, p[:9])
			}
			data = append(data, p[p[0]&0x3f:]...)
		}
	}
	lines, err := readLines(data)
	if err != nil || len(lines) != 1 || lines[0][len(lines[0])-1] != string(TreeFiles()[BigFile]) {
		t.Fatalf("%d bytes that read as %d lines (%v)", len(data), len(lines), err)
	}
}

// TestTextReplies: the ISI bug, #ALL, directories, failures, forwarding,
// LOCAL objects, wrong versions and unknown commands.
func TestTextReplies(t *testing.T) {
	s, c := start(t)
	for i, tc := range []struct{ send, want string }{
		{"GET-OBJECT-INFO ACCESS-METHOD ASCII " + s.Root + "/README.txt 0\n", "FAILURE NOT-FOUND\n"},
		{"GET-OBJECT-INFO #ALL ASCII " + s.Root + "/README.txt 0\n", "ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS '' '' '' ''\n"},
		{"GET-OBJECT-INFO ACCESS-METHOD ASCII " + s.Root + "/sub 0\n", "NONE-FOUND\n"},
		{"GET-OBJECT-INFO ACCESS-METHOD ASCII /etc/passwd 0\n", "FAILURE NOT-AUTHORIZED\n"},
		{"GET-OBJECT-INFO ACCESS-METHOD ASCII " + s.Root + "/../x 0\n", "FAILURE NOT-AUTHORIZED\n"},
		{"GET-OBJECT-INFO ACCESS-METHOD ASCII " + Moved + " 0\n", "FORWARDED INTERNET-D 127.0.0.1("},
		{"GET-OBJECT-INFO ACCESS-METHOD ASCII '" + LocalPrefix + "/tmp/a b.txt' 0\n", "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE LOCAL '' '' '' '/tmp/a b.txt'\n"},
		{"GET-OBJECT-INFO CONTENTS ASCII " + LocalPrefix + "/tmp/x 0\n", "NONE-FOUND\n"},
		{"GET-OBJECT-INFO ACCESS-METHOD ASCII " + LocalPrefix + " 0\n", "FAILURE NOT-FOUND\n"},
		{"DIRECTORY ASCII " + s.Root + "/README.txt\nLIST ATTRIBUTES COMPONENTS\n", "FAILURE NOT-A-DIRECTORY\n"},
		{"DIRECTORY ASCII " + s.Root + "/emptydir\nLIST '' COMPONENTS\n", "NONE-FOUND\n"},
		{"DIRECTORY ASCII " + s.Root + "\nLIST ATTRIBUTES COMPONENTS sub/n*\n", "LINK  L FILE nested.txt INTERNET-D 127.0.0.1("},
		{"DIRECTORY ASCII " + VirtualRoot + "\nLIST ATTRIBUTES COMPONENTS ftp-readme\n", "ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' BINARY\n"},
		{"VERSION 1 x\nGET-OBJECT-INFO #ALL ASCII /x 0\n", "VERSION-NOT-SUPPORTED TRY 1-5"},
		{"VERSION\nFROBNICATE foo\n", "VERSION 5 " + Software + "\nERROR Unknown message: FROBNICATE foo\n"},
	} {
		c.Write(packet1(byte(i), tc.send))
		p := read(t, c)
		if got := string(p[p[0]&0x3f:]); !strings.Contains(got, tc.want) || strings.HasPrefix(tc.want, "VERSION-") && got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.send, got, tc.want)
		}
	}
}

// TestSwitches: a refusal, a redirect to the other port, the swapped CID
// after the ACK.
func TestSwitches(t *testing.T) {
	s, c := start(t)
	c.Write(packet1(1, "GET-OBJECT-INFO #ALL ASCII /switch/refuse"+s.Root+"/README.txt 0\n"))
	if p := read(t, c); !bytes.Equal(p, []byte{0x0d, 0x58, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}) {
		t.Errorf("refusal % x", p)
	}
	c.Write(packet1(2, "GET-OBJECT-INFO #ALL ASCII /switch/redirect"+s.Root+"/README.txt 0\n"))
	want := []byte{0x13, 0x58, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1, byte(s.AltPort >> 8), byte(s.AltPort)}
	if p := read(t, c); !bytes.Equal(p, want) {
		t.Errorf("redirect % x, want % x", p, want)
	}
	c.Write(packet1(3, "GET-OBJECT-INFO CONTENTS ASCII /switch/swap"+s.Root+"/"+BigFile+" 0\n"))
	for i := 0; i < 16; i++ {
		read(t, c)
	}
	c.Write([]byte{0x09, 0x58, 3, 0, 0, 0, 0, 0, 16})
	if p := read(t, c); p[1] != 3 || p[2] != 0x58 || p[4] != 17 {
		t.Errorf("after the ACK % x, want the CID swapped", p[:9])
	}
	if _, err := os.Stat(filepath.Join(s.Root, "emptydir")); err != nil {
		t.Error(err)
	}
}

// TestStoppedWindowOutlivesTheDoneQueue: a reply stopped for its ACK is
// not forgotten when 20 other requests finish meanwhile (parallel tests
// share the server; once in CI the ACK of packet 16 found nothing), and
// one that was not stopped leaves with the queue, as in ISI's server.
func TestStoppedWindowOutlivesTheDoneQueue(t *testing.T) {
	s, c := start(t)
	c.Write(packet1(0xae, "VERSION 5 t\nGET-OBJECT-INFO CONTENTS ASCII '"+s.Root+"/"+BigFile+"' 0\n"))
	for i := 1; i <= 16; i++ {
		read(t, c)
	}
	c.Write(packet1(0x01, "VERSION 5 t\nGET-OBJECT-INFO #ALL ASCII '"+s.Root+"/README.txt' 0\n"))
	read(t, c)
	for cid := byte(2); cid <= 22; cid++ { // 21 more: both are out of the queue
		c.Write(packet1(cid, "VERSION 5 t\nGET-OBJECT-INFO #ALL ASCII '"+s.Root+"/README.txt' 0\n"))
		read(t, c)
	}
	c.Write([]byte{0x09, 0x58, 0xae, 0, 0, 0, 0, 0, 16})
	if p := read(t, c); p[2] != 0xae || p[4] != 17 {
		t.Fatalf("after the ACK: header % x, want packet 17 of CID 0x58ae", p[:9])
	}
	// The finished one-packet reply left with the queue: its duplicate is
	// a new request (answered again, from scratch), as a forgotten one is.
	s.mu.Lock()
	_, kept := s.exs[exKey{c.LocalAddr().String(), 0x5801}]
	n := len(s.exs)
	s.mu.Unlock()
	if kept || n != doneQueue+1 {
		t.Errorf("%d exchanges kept, CID 1 among them: %v; want the queue's %d and the stopped one", n, kept, doneQueue)
	}
}
