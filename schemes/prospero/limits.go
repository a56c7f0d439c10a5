package prospero

import (
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Bounds on one ARDP exchange (one request message and its reply). A
// server decides when the client sends, where, and how long it waits:
// without these, one that redirects to itself made urlget send two
// million packets in three minutes, and one that asks for a 65535 s wait
// or resends a packet every 2 s held it forever.
const (
	// exchangeTimeout bounds an exchange when the caller's context has
	// no deadline (with one, that deadline replaces it, longer or
	// shorter: --timeout is the user's word). The ISI schedule gives up
	// on a silent server after about a minute; twice that leaves a slow
	// server that keeps sending room to finish, while duplicates, wait
	// packets or a trickle of new packets cannot hold urlget longer.
	exchangeTimeout = 2 * time.Minute
	// maxWait caps one wait packet's request (up to 65535 s; archie
	// servers ask for 900 s): a minute, the length of the ISI schedule
	// itself. Waits count against the exchange's deadline.
	maxWait = time.Minute
	// maxRedirects bounds the redirects of one exchange. The ISI server
	// redirects once, to a less loaded server; a few more leave room for
	// a second hop. Each redirect makes urlget send its whole request to
	// an address the server chose, so the bound is what keeps a redirect
	// loop, or a server aiming urlget at a third party, to a handful of
	// packets.
	maxRedirects = 4
)

// protocolError is a packet or sequence of packets that breaks ARDP: exit
// 6, saying what was wrong.
func protocolError(format string, args ...any) error {
	return &schemes.Error{Scheme: "prospero", Phase: "resolve", Kind: schemes.KindProtocol,
		Msg: "the server broke ARDP: " + fmt.Sprintf(format, args...)}
}

// redirectRefused is a redirect urlget will not follow for safety.
func redirectRefused(to netip.AddrPort, why string) error {
	return &schemes.Error{Scheme: "prospero", Phase: "resolve", Kind: schemes.KindSafety, Part: "redirect",
		Msg: fmt.Sprintf("refusing the server's ARDP redirect to %s: %s", to, why)}
}

// checkRedirect says whether a server at from may send the request on to
// to: only a unicast address of the same family (option 4 carries IPv4
// only), never one that reaches a group of hosts or none (multicast,
// broadcast — limited, or directed to one of this host's networks, given
// as local — unspecified, reserved), and not this host's loopback when
// the server is elsewhere. The port policy is the Dialer's, which every
// redirect goes through; port 0 would be the Dialer's default, so it is
// refused here.
func checkRedirect(from netip.Addr, to netip.AddrPort, local []netip.Prefix) error {
	from, ip := from.Unmap(), to.Addr()
	switch {
	case to.Port() == 0:
		return protocolError("a redirect to port 0")
	case !from.Is4():
		return redirectRefused(to, "the server is not on IPv4 (a redirect may not change the address family)")
	case ip.IsUnspecified() || ip.As4()[0] == 0:
		return redirectRefused(to, "an unspecified address")
	case ip.IsMulticast():
		return redirectRefused(to, "a multicast address")
	case ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return redirectRefused(to, "the broadcast address")
	case ip.As4()[0] >= 240:
		return redirectRefused(to, "a reserved address")
	case ip.IsLoopback() && !from.IsLoopback():
		return redirectRefused(to, "this host's loopback, from a server elsewhere")
	}
	for _, p := range local {
		if p.Addr().Is4() && p.Bits() < 31 && ip == broadcastOf(p) {
			return redirectRefused(to, "the broadcast address of the network "+p.Masked().String())
		}
	}
	return nil
}

// broadcastOf is the directed broadcast address of an IPv4 network: its
// host bits all ones.
func broadcastOf(p netip.Prefix) netip.Addr {
	a := p.Addr().As4()
	for i := range a {
		host := max(0, min(8, (i+1)*8-p.Bits())) // host bits in this octet
		a[i] |= byte(1<<host - 1)
	}
	return netip.AddrFrom4(a)
}

// localNetworks are this host's IPv4 networks, whose broadcast addresses
// a redirect may not name; none when they cannot be read (the kernel
// still refuses to send to a broadcast address without SO_BROADCAST).
func localNetworks() []netip.Prefix {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Prefix
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.To4() == nil {
			continue
		}
		ones, bits := n.Mask.Size()
		ip, _ := netip.AddrFromSlice(n.IP.To4())
		if bits == 0 {
			continue // a mask that is no prefix
		}
		if p := netip.PrefixFrom(ip, ones-(bits-32)); p.IsValid() {
			out = append(out, p)
		}
	}
	return out
}
