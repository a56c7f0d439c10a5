package prospero_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/transport"
)

// TestResolvedURLIsFetched: the fetch Client retrieves the URL an access
// method gives with that URL's own handler (here a gopher item on a local
// listener), and records the chain.
func TestResolvedURLIsFetched(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			bufio.NewReader(c).ReadString('\n')
			io.WriteString(c, "gopher text\r\n.\r\n")
			c.Close()
		}
	}()
	port := strings.TrimPrefix(ln.Addr().String(), "127.0.0.1:")
	// One ARDP reply (a 3-octet header echoing the id) to any request.
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFromUDP(buf)
			if err != nil {
				return
			}
			if n < 9 {
				continue
			}
			reply := append([]byte{0x03, buf[1], buf[2]}, "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE GOPHER INTERNET-D 127.0.0.1("+port+") ASCII '/t.txt' TEXT\n"...)
			pc.WriteToUDP(reply, from)
		}
	}()
	c := &fetch.Client{Dialer: &transport.Dialer{}}
	resp, err := c.Get(context.Background(), "prospero://"+pc.LocalAddr().String()+"//pfs/g")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "gopher text\n" || resp.URL.Generic().Scheme != "gopher" || resp.Resolved == nil || len(resp.Resolved.Chain) != 3 {
		t.Errorf("%q from %v, resolution %+v", b, resp.URL, resp.Resolved)
	}
	// A download records the same chain, the access method written as
	// the server writes it.
	dest := filepath.Join(t.TempDir(), "g.txt")
	res, err := c.Download(context.Background(), "prospero://"+pc.LocalAddr().String()+"//pfs/g", dest, fetch.DownloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(dest)
	want := []string{"prospero://" + pc.LocalAddr().String() + "//pfs/g", "ACCESS-METHOD GOPHER INTERNET-D 127.0.0.1(" + port + ") ASCII '/t.txt' TEXT",
		"gopher://127.0.0.1:" + port + "/0/t.txt"}
	if string(got) != "gopher text\n" || !slices.Equal(res.Resolution, want) {
		t.Errorf("downloaded %q, resolution %q; want %q", got, res.Resolution, want)
	}
}
