// Command gopherplusd runs the in-repo Gopher+ test server (package
// integration/gopherplus) for the container test bed, or probes one:
//
//	gopherplusd -listen 127.0.0.1:7072 -root /srv/fixtures [-forms FILE]
//	gopherplusd -probe 127.0.0.1:7072   (health check: exit 0 when it answers)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/integration/gopherplus"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:7072", "address to listen on")
	root := flag.String("root", "", "directory served at /")
	forms := flag.String("forms", "", "append received forms to this file (JSON lines)")
	admin := flag.String("admin", "urlget test admin <root@127.0.0.1>", "+ADMIN name and e-mail")
	probe := flag.String("probe", "", "probe the server at this address and exit")
	flag.Parse()
	if *probe != "" {
		if err := doProbe(*probe); err != nil {
			fmt.Fprintln(os.Stderr, "probe:", err)
			os.Exit(1)
		}
		return
	}
	host, port, err := net.SplitHostPort(*listen)
	if err != nil {
		log.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	s := &gopherplus.Server{Root: *root, Host: host, Port: p, Admin: *admin, FormLog: *forms}
	log.Printf("gopherplusd serving %q on %s", *root, *listen)
	log.Fatal(s.Serve(ln))
}

// doProbe asks for the about item's default view and wants a `+N` header.
func doProbe(addr string) error {
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("/plus/about.txt\t+\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "+") {
		return fmt.Errorf("reply %q: %v", line, err)
	}
	return nil
}
