package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/transport"
)

// serveFlags are `urlget serve`'s own flags; the retrieval flags
// (timeouts, proxies, logins, --proto, the schemes' own) configure the
// fetch.Client the gateway retrieves with, as they do a retrieval's.
type serveFlags struct {
	listen            string
	allowFile         bool
	allowSend         bool
	maxUpstream       int
	maxUpstreamHost   int
	maxConnsPerClient int
	hosts             []string
	logFormat         string
	shutdownGrace     float64
	cacheMaxAge       cacheMaxAge
}

func (s *serveFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&s.listen, "listen", "127.0.0.1:8070", "serve: listen on `ADDR` (host:port); an address other than loopback lets other machines use the gateway")
	fs.BoolVar(&s.allowFile, "allow-file", false, "serve: let the gateway read this machine's files (file: URLs)")
	fs.BoolVar(&s.allowSend, "allow-send", false, "serve: let the gateway send mail: a mailto: URL shows a form, and its POST from the gateway's own page sends (--smtp-server, --from)")
	fs.IntVar(&s.maxUpstream, "max-upstream", gateway.DefaultMaxUpstream, "serve: run at most `N` retrievals at once; more wait")
	fs.IntVar(&s.maxUpstreamHost, "max-upstream-per-host", 0, "serve: run at most `N` retrievals at once from one host and port (default a quarter of --max-upstream); more wait while other hosts' proceed")
	fs.IntVar(&s.maxConnsPerClient, "max-conns-per-client", gateway.DefaultMaxConnsPerClient, "serve: let one client address hold at most `N` connections open; one more is closed at once")
	fs.StringArrayVar(&s.hosts, "host", nil, "serve: also answer to `NAME` in the Host header, as clients send it (behind a Service, Ingress or load balancer: its name, with :PORT unless the port is the scheme's default); repeat")
	fs.StringVar(&s.logFormat, "log-format", "text", "serve: write the access log (a line a request, on stderr) as `FORMAT`: text or json")
	fs.Float64Var(&s.shutdownGrace, "shutdown-grace", defaultShutdownGrace.Seconds(), "serve: on SIGTERM or SIGINT, let the requests under way finish for up to `SECONDS`, then cut them")
	fs.Var(&s.cacheMaxAge, "cache-max-age", "serve: let caches keep documents and listings fresh for `AGE` (Cache-Control: max-age; default documents=5m,listings=1m), or each its own: documents=10m,listings=30s; 0 makes them ask again each time, answered 304 from the scheme's stat where it can. Answers fetched with a login or to a form's words, and failures, are never stored")
}

func (s *serveFlags) check(fs *pflag.FlagSet, o *options) error {
	if err := refuseRetrievalOnly(fs, "serve"); err != nil {
		return err
	}
	if err := o.schemes.refuseSubmits("a serve", "the gateway retrieves what pages link to with GET, and sends nothing of the command line's to their servers"); err != nil {
		return err
	}
	if len(o.urls) != 0 {
		return errors.New("serve: takes no URL: urlget serve [--listen ADDR] [flags]")
	}
	if s.maxUpstream < 1 {
		return fmt.Errorf("--max-upstream %d: want 1 or more", s.maxUpstream)
	}
	if s.maxUpstreamHost < 0 || s.maxUpstreamHost > s.maxUpstream {
		return fmt.Errorf("--max-upstream-per-host %d: want 1 to --max-upstream (%d), or 0 for a quarter of it", s.maxUpstreamHost, s.maxUpstream)
	}
	if s.maxConnsPerClient < 1 {
		return fmt.Errorf("--max-conns-per-client %d: want 1 or more", s.maxConnsPerClient)
	}
	for _, h := range s.hosts {
		if h == "" || strings.ContainsAny(h, "/ \t@") {
			return fmt.Errorf("--host %q: want a host name as the Host header sends it, NAME or NAME:PORT", h)
		}
	}
	if s.logFormat != "text" && s.logFormat != "json" {
		return fmt.Errorf("--log-format %q: want text or json", s.logFormat)
	}
	if !(s.shutdownGrace >= 0) || s.shutdownGrace > 24*3600 {
		return fmt.Errorf("--shutdown-grace %v: want 0 to 86400 seconds", s.shutdownGrace)
	}
	return nil
}

// runServe is `urlget serve`: the gateway on --listen until SIGINT or
// SIGTERM, then a graceful shutdown (drain), and exit 0.
func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := &serveFlags{}
	o, err := parseFlagsFor(args, stdin, stderr, s)
	if err != nil {
		serve, _ := commandNamed("serve")
		return flagsFailed(err, serve, args, stdout, stderr)
	}
	con := newConsole(stderr, false)
	o.con = con
	// No terminal to ask at (nil stdin): a prompt would hold a browser's
	// request on the console; the handler fails naming the flag instead.
	client, err := o.client(nil, con)
	if err != nil {
		con.say(redactedText(err))
		return exitCode(err)
	}
	defer client.CloseIdleConnections()
	ln, err := transport.Listen(s.listen)
	if err != nil {
		fmt.Fprintf(stderr, "urlget: serve: %v\n", err)
		return 2
	}
	addr := ln.Addr()
	// The names the gateway answers to: the loopback ones, and the name
	// --listen gave (and, listening everywhere, the machine's own).
	names := []string{s.listen}
	if tcp, ok := addr.(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		fmt.Fprintf(stderr, "urlget: serve: listening on %s, not loopback: other machines can retrieve through this gateway\n", addr)
		if h, err := os.Hostname(); err == nil && tcp.IP.IsUnspecified() {
			names = append(names, h)
		}
	}
	// The gateway's own http.Server: its keep-alive, header and
	// per-client bounds come with it.
	// --host names go as written: a name behind a proxy on port 80 or
	// 443 comes without a port.
	gw := gateway.New(gateway.Options{Client: client, Hosts: append(gateway.HostsFor(addr, names...), s.hosts...),
		AllowFile: s.allowFile, AllowSend: s.allowSend, MaxUpstream: s.maxUpstream,
		MaxUpstreamPerHost: s.maxUpstreamHost, MaxConnsPerClient: s.maxConnsPerClient,
		DocumentMaxAge: s.cacheMaxAge.documents, ListingMaxAge: s.cacheMaxAge.listings,
		Log:   accessLog(stderr, s.logFormat),
		Words: func(setting string) string { return settingFlags[setting] }})
	srv := gw.HTTPServer()
	fmt.Fprintf(stdout, "serving on http://%s/\n", addr)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "urlget: serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	// A stop asked for is the gateway's normal end, not a failure: exit
	// 0 (a second signal kills it at once, as its default action).
	drain(gw, srv, time.Duration(s.shutdownGrace*float64(time.Second)), stderr)
	return 0
}
