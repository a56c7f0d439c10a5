package testbed

import (
	"net"
	"os"
)

// ClientIP is the loopback address this test process makes the
// connections from whose commands a test counts in a server's log (FTP's
// USER to QUIT): a server logs the client's address, and only this
// process dials from this one, so that another process's sessions at the
// same moment — a second test run, the engineer's own commands — do not
// enter the count. It is 127.1.X.Y after the process ID; the servers
// listen on 127.0.0.1, and loopback answers the whole of 127.0.0.0/8.
var ClientIP = clientIP(os.Getpid())

func clientIP(pid int) net.IP {
	x, y := byte(pid>>8), byte(pid)
	if y == 0 || y == 255 {
		y = 1 + byte(pid>>16)%254
	}
	return net.IPv4(127, 1, x, y)
}
