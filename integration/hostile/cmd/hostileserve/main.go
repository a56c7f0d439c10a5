// Command hostileserve serves one of the hostile fakes on 127.0.0.1, for
// the benches and for trying urlget by hand against a server that breaks
// a rule:
//
//	hostileserve FAKE N
//
// prints the port it listens on, and serves until it is interrupted. FAKE
// is ftp-wide (an FTP LIST of N files; N < 0: endless), http-wide (an
// index page of N links), gopher-wide (a menu of N files) or gopher-crawl
// (an endless site of menus, N links a menu).
package main

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/urlget/urlget/integration/hostile"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: hostileserve ftp-wide|http-wide|gopher-wide|gopher-crawl N")
		os.Exit(2)
	}
	n, err := strconv.ParseInt(os.Args[2], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostileserve:", err)
		os.Exit(2)
	}
	fakes := map[string]func(*hostile.Conn){
		"ftp-wide":     hostile.FTPWideListing(n),
		"http-wide":    hostile.HTTPWideIndex(int(n)),
		"gopher-wide":  hostile.GopherWideMenu(int(n)),
		"gopher-crawl": hostile.GopherCrawl(int(n)),
	}
	serve, ok := fakes[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "hostileserve: no fake %q\n", os.Args[1])
		os.Exit(2)
	}
	s, err := hostile.Start(serve)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostileserve:", err)
		os.Exit(1)
	}
	fmt.Println(s.Port())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	s.Close()
}
