// Package wan puts a wide-area link — round-trip time, jitter and a
// per-connection bandwidth (Spec) — between clients and the test bed's
// servers, so that benches and tests can run "as over the internet":
//
//	w, err := wan.Setup(ctx, wan.Config{}, spec, wan.TestbedRoutes())
//	defer w.Close(ctx)
//	// http://127.0.0.2:8080/… now reaches nginx over the WAN
//
// The link is made by proxies of the test bed's toxiproxy (the compose
// service testbed.Toxiproxy), created through its API for the run and
// deleted after it, each carrying the toxics of Spec.Toxics. They listen
// on a loopback address of their own (DefaultHost, 127.0.0.2), each on the
// very port of the server behind it, so that a URL goes over the WAN by a
// change of host alone: ftp://127.0.0.2:2121/ reaches vsftpd, and the data
// connection its EPSV reply sends the client to, 127.0.0.2:P, is the proxy
// of vsftpd's passive port P. They are apart from the fault-injection
// proxies of testbed.ToxiproxyProxies (127.0.0.1 and [::1]), whose toxics
// the fault tests add and remove.
//
// The command integration/cmd/wan does the same for the bench scripts.
package wan

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"

	"github.com/urlget/urlget/integration/testbed"
)

// DefaultHost is the loopback address the WAN proxies listen on unless
// Config.Host says otherwise. The whole of 127.0.0.0/8 is loopback on
// Linux, and no server of the test bed binds 127.0.0.2.
const DefaultHost = "127.0.0.2"

// Route is one server put behind the WAN.
type Route struct {
	// Service names it in the command's output ("http", "ftp"); "" for a
	// route that needs no name of its own (a passive data port).
	Service string
	// Upstream is the server's address, host:port.
	Upstream string
}

// TestbedRoutes returns the routes of the servers that benches run
// against: nginx's plain HTTP, gophernicus, INN, waisd, and vsftpd with
// its control port and every passive data port.
func TestbedRoutes() []Route {
	rs := []Route{
		{"http", testbed.Addr(testbed.HTTPPort)},
		{"gopher", testbed.Addr(testbed.GophernicusPort)},
		{"nntp", testbed.Addr(testbed.NNTPPort)},
		{"wais", testbed.Addr(testbed.WAISPort)},
		{"ftp", testbed.Addr(testbed.VsftpdPort)},
	}
	for p := testbed.VsftpdPasvMin; p <= testbed.VsftpdPasvMax; p++ {
		rs = append(rs, Route{Upstream: testbed.Addr(p)})
	}
	return rs
}

// Config says where the WAN proxies are made.
type Config struct {
	// API is toxiproxy's API address (default the test bed's,
	// 127.0.0.1:testbed.ToxiproxyAPIPort).
	API string
	// Host is the address the proxies listen on (default DefaultHost).
	// Two WANs at once need two hosts: the ports are the servers'.
	Host string
}

func (c Config) api() string {
	if c.API != "" {
		return c.API
	}
	return testbed.Addr(testbed.ToxiproxyAPIPort)
}

func (c Config) host() string {
	if c.Host != "" {
		return c.Host
	}
	return DefaultHost
}

// namePrefix starts the name of every WAN proxy on host, so that Down
// finds them and nothing else: "wan-127.0.0.2:8080" listens on that.
func namePrefix(host string) string { return "wan-" + net.JoinHostPort(host, "") }

// WAN is a set of WAN proxies up in toxiproxy.
type WAN struct {
	// Host is the address they listen on.
	Host string
	// Spec is the link they imitate.
	Spec Spec
	// Handshake says that a new connection costs a round trip before its
	// first bytes, as over a real link: the toxiproxy server has the
	// handshake toxic (see Spec).
	Handshake bool
	client    *toxiproxy.Client
	routes    []Route
}

// Addr returns the address on the WAN of the server at upstream: its
// port on Host.
func (w *WAN) Addr(upstream string) (string, error) {
	_, port, err := net.SplitHostPort(upstream)
	if err != nil {
		return "", err
	}
	return net.JoinHostPort(w.Host, port), nil
}

// Services returns the address on the WAN of every named route, by its
// Service.
func (w *WAN) Services() map[string]string {
	m := map[string]string{}
	for _, r := range w.routes {
		if r.Service != "" {
			m[r.Service], _ = w.Addr(r.Upstream) // checked by Setup
		}
	}
	return m
}

// Setup makes one proxy per route on cfg's host, at the port of its
// upstream, and gives each the toxics of spec. WAN proxies left on that
// host by an earlier run that did not end cleanly are replaced. On error
// it removes what it made.
func Setup(ctx context.Context, cfg Config, spec Spec, routes []Route) (*WAN, error) {
	w := &WAN{Host: cfg.host(), Spec: spec, client: toxiproxy.NewClient(cfg.api()), routes: routes}
	if _, err := Down(ctx, cfg); err != nil {
		return nil, err
	}
	var ps []toxiproxy.Proxy
	for _, r := range routes {
		listen, err := w.Addr(r.Upstream)
		if err != nil {
			return nil, fmt.Errorf("wan: route %q: %w", r.Upstream, err)
		}
		ps = append(ps, toxiproxy.Proxy{Name: namePrefix(w.Host) + portOf(listen), Listen: listen, Upstream: r.Upstream, Enabled: true})
	}
	made, err := w.client.Populate(ps)
	if err == nil {
		w.Handshake, err = addToxics(ctx, made, spec.Toxics())
	}
	if err != nil {
		_, cerr := Down(context.WithoutCancel(ctx), cfg)
		return nil, errors.Join(fmt.Errorf("wan: %w", err), cerr)
	}
	return w, nil
}

// addToxics adds ts to every proxy, in order, leaving out the handshake
// toxics when the server does not know their type; it says whether they
// are in.
func addToxics(ctx context.Context, ps []*toxiproxy.Proxy, ts []toxiproxy.Toxic) (handshake bool, err error) {
	handshake = slices.ContainsFunc(ts, func(t toxiproxy.Toxic) bool { return t.Type == handshakeType })
	for _, p := range ps {
		for _, t := range ts {
			if t.Type == handshakeType && !handshake {
				continue
			}
			if err := ctx.Err(); err != nil {
				return false, err
			}
			_, err := p.AddToxic(t.Name, t.Type, t.Stream, t.Toxicity, t.Attributes)
			if err != nil && t.Type == handshakeType && strings.Contains(err.Error(), "invalid toxic type") {
				handshake = false // a toxiproxyd built before the toxic: the rest still works
				continue
			}
			if err != nil {
				return false, fmt.Errorf("%s: toxic %s: %w", p.Name, t.Name, err)
			}
		}
	}
	return handshake, nil
}

func portOf(addr string) string {
	_, port, _ := net.SplitHostPort(addr)
	return port
}

// Close deletes the WAN's proxies, closing the connections through them.
func (w *WAN) Close(ctx context.Context) error {
	_, err := down(ctx, w.client, w.Host)
	return err
}

// Down deletes every WAN proxy on cfg's host, whoever made it, and says
// how many there were.
func Down(ctx context.Context, cfg Config) (int, error) {
	return down(ctx, toxiproxy.NewClient(cfg.api()), cfg.host())
}

func down(ctx context.Context, c *toxiproxy.Client, host string) (int, error) {
	ps, err := c.Proxies()
	if err != nil {
		return 0, fmt.Errorf("wan: toxiproxy: %w", err)
	}
	n := 0
	for name, p := range ps {
		if !strings.HasPrefix(name, namePrefix(host)) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if err := p.Delete(); err != nil {
			return n, fmt.Errorf("wan: deleting %s: %w", name, err)
		}
		n++
	}
	return n, nil
}
