// Command dirsrv runs the in-repo Prospero test server (package
// integration/dirsrv) for the container test bed, or probes one:
//
//	dirsrv -listen 127.0.0.1:1525 -alt 127.0.0.1:1526 -root DIR [-write-tree] [-ftp H(P)] [-gopher H(P)]
//	dirsrv -probe 127.0.0.1:1525   (health check: exit 0 when a bare VERSION is answered)
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"time"

	"github.com/urlget/urlget/integration/dirsrv"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:1525", "UDP address to serve on")
	alt := flag.String("alt", "127.0.0.1:1526", "second UDP address: the target of redirects, forwards and links to another server")
	root := flag.String("root", "/srv/prospero", "directory of the native tree (its absolute paths are the hsonames)")
	write := flag.Bool("write-tree", false, "write the native fixture tree into -root first")
	ftp := flag.String("ftp", "127.0.0.1(2121)", "host(port) of the FTP server the virtual directory links to")
	gopher := flag.String("gopher", "127.0.0.1(7070)", "host(port) of the Gopher server the virtual directory links to")
	probe := flag.String("probe", "", "probe the server at this address and exit")
	flag.Parse()
	if *probe != "" {
		if err := doProbe(*probe); err != nil {
			fmt.Fprintln(os.Stderr, "probe:", err)
			os.Exit(1)
		}
		return
	}
	if *write {
		if err := dirsrv.WriteTree(*root); err != nil {
			log.Fatal(err)
		}
	}
	main, err := net.ListenPacket("udp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	second, err := net.ListenPacket("udp", *alt)
	if err != nil {
		log.Fatal(err)
	}
	host, _, _ := net.SplitHostPort(*listen)
	s := &dirsrv.Server{Root: *root, Host: host, Port: main.LocalAddr().(*net.UDPAddr).Port,
		AltPort: second.LocalAddr().(*net.UDPAddr).Port, FTP: *ftp, Gopher: *gopher,
		Log: log.New(os.Stderr, "dirsrv: ", log.LstdFlags)}
	log.Printf("dirsrv serving %q on %s and %s", *root, *listen, *alt)
	go func() { log.Fatal(s.Serve(second, true)) }()
	log.Fatal(s.Serve(main, false))
}

// doProbe sends a one-packet request holding a bare VERSION line (ARDP
// header written out by hand: length 9, CID 0x1234, packet 1 of 1) and
// wants the one-packet reply naming version 5.
func doProbe(addr string) error {
	c, err := net.DialTimeout("udp", addr, 3*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := c.Write([]byte("\x09\x12\x34\x00\x01\x00\x01\x00\x00VERSION\n")); err != nil {
		return err
	}
	buf := make([]byte, 2048)
	n, err := c.Read(buf)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(buf[:n], []byte("\x03\x12\x34VERSION 5 ")) {
		return fmt.Errorf("reply %q", buf[:n])
	}
	return nil
}
