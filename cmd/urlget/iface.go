package main

import (
	"fmt"
	"net"
)

// localIP reads --interface as curl does for an address or an
// interface's name: an IP address is used as it is (the system refuses to
// connect from one that is not this machine's); a name is a network
// interface's, whose first address is taken (IPv4 before IPv6, as most
// servers are reached over IPv4). curl's "if!" and "host!" prefixes and
// host names are not read.
func localIP(s string) (net.IP, error) {
	if ip := net.ParseIP(s); ip != nil {
		return ip, nil
	}
	ifi, err := net.InterfaceByName(s)
	if err != nil {
		return nil, fmt.Errorf("--interface %s: neither an IP address nor a network interface of this machine", s)
	}
	addrs, err := ifi.Addrs()
	if err != nil {
		return nil, fmt.Errorf("--interface %s: %v", s, err)
	}
	var v6 net.IP
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		if ipn.IP.To4() != nil {
			return ipn.IP, nil
		}
		if v6 == nil {
			v6 = ipn.IP
		}
	}
	if v6 == nil {
		return nil, fmt.Errorf("--interface %s: the interface has no address", s)
	}
	return v6, nil
}
