package schemes

// defaultPorts are the ports RFC 1738 (and, for https, RFC 2818) assigns to
// each scheme that names a host. A URL whose port equals its scheme's default
// is equivalent to the same URL without a port.
var defaultPorts = map[string]int{
	"ftp":      21,
	"ftps":     990,
	"http":     80,
	"https":    443,
	"gopher":   70,
	"gophers":  7070, // no registered port; what the few TLS gopher servers use
	"nntp":     119,
	"nntps":    563,
	"news":     119,
	"telnet":   23,
	"rlogin":   513,
	"tn3270":   23,
	"wais":     210,
	"prospero": 1525,
}

// DefaultPort returns the default port of scheme, or 0 if it has none.
func DefaultPort(scheme string) int { return defaultPorts[scheme] }
