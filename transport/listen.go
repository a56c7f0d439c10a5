package transport

import "net"

// Listen opens the TCP listener of `urlget serve` on addr (host:port):
// the one socket urlget accepts on, opened here like every socket the
// program uses, so that the rule "only transport opens sockets" holds
// for listening too. Which names the gateway answers to, and the warning
// for an address beyond loopback, are the gateway's business.
func Listen(addr string) (net.Listener, error) {
	return net.Listen("tcp", addr)
}
