// Command wan puts the test bed's servers behind a wide-area link (package
// integration/wan) for the bench scripts, or takes them out again:
//
//	wan up 40ms,20MiB/s [HOST:PORT...]   proxies up; shell assignments on stdout
//	wan down                             the proxies deleted
//
// up makes a proxy on 127.0.0.2 (-host) at the port of each server of
// wan.TestbedRoutes — nginx 8080, gophernicus 7070, INN 1119, waisd 2210,
// vsftpd 2121 and its passive ports 30000–30099 — and of each HOST:PORT
// named (a bench's own server), with the toxics of the spec (see
// wan.ParseSpec and wan.Spec), and prints for eval:
//
//	WAN_HOST=127.0.0.2
//	WAN_SPEC='40ms,20MiB/s'
//	WAN_HANDSHAKE=yes        (no: this toxiproxyd lacks the handshake toxic)
//	WAN_HTTP=127.0.0.2:8080  (also WAN_GOPHER, WAN_NNTP, WAN_WAIS, WAN_FTP)
//
// The proxies stay until down (or the next up on the same host).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"time"

	"github.com/urlget/urlget/integration/wan"
)

func main() {
	api := flag.String("api", "", "toxiproxy's API address (default the test bed's, 127.0.0.1:8474)")
	host := flag.String("host", wan.DefaultHost, "loopback address the proxies listen on")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wan [-api ADDR] [-host ADDR] up SPEC [HOST:PORT...] | down")
		flag.PrintDefaults()
	}
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cfg := wan.Config{API: *api, Host: *host}
	args := flag.Args()
	var err error
	switch {
	case len(args) >= 2 && args[0] == "up":
		err = up(ctx, cfg, args[1], args[2:])
	case len(args) == 1 && args[0] == "down":
		var n int
		n, err = wan.Down(ctx, cfg)
		if err == nil {
			fmt.Fprintf(os.Stderr, "wan: %d proxies on %s deleted\n", n, *host)
		}
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wan:", err)
		os.Exit(1)
	}
}

// up sets the WAN up and prints its shell assignments.
func up(ctx context.Context, cfg wan.Config, spec string, extra []string) error {
	sp, err := wan.ParseSpec(spec)
	if err != nil {
		return err
	}
	routes := wan.TestbedRoutes()
	for _, u := range extra {
		routes = append(routes, wan.Route{Upstream: u})
	}
	w, err := wan.Setup(ctx, cfg, sp, routes)
	if err != nil {
		return err
	}
	hs := "no"
	if w.Handshake {
		hs = "yes"
	} else if sp.RTT > 0 {
		fmt.Fprintln(os.Stderr, "wan: this toxiproxyd has no handshake toxic (integration/stack.sh up builds one that has):",
			"new connections cost no round trip before their first bytes")
	}
	fmt.Printf("WAN_HOST=%s\nWAN_SPEC='%s'\nWAN_HANDSHAKE=%s\n", w.Host, w.Spec, hs)
	svc := w.Services()
	names := make([]string, 0, len(svc))
	for name := range svc {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Printf("WAN_%s=%s\n", strings.ToUpper(name), svc[name])
	}
	fmt.Fprintf(os.Stderr, "wan: %s on %s: %d proxies\n", w.Spec, w.Host, len(routes))
	return nil
}
