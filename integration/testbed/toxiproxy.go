package testbed

import (
	"net"
	"path/filepath"
	"runtime"
	"strconv"
)

// Toxiproxy is the compose service of Shopify's toxiproxy
// (integration/cmd/toxiproxyd), the TCP proxy the fault-injection tests put
// between urlget and the real servers: they add toxics (latency, bandwidth,
// limit_data, reset_peer, timeout, slicer) to a proxy through its HTTP API
// at ToxiproxyAPIPort and remove them when done.
const Toxiproxy = "toxiproxy"

// Toxiproxy's API and the listen ports of its proxies (ToxiproxyProxies).
const (
	// ToxiproxyAPIPort is toxiproxy's HTTP API on Host.
	ToxiproxyAPIPort = 8474
	// ToxiHTTPPort (on Host) leads to nginx's HTTPPort.
	ToxiHTTPPort = 28080
	// ToxiGopherPort (on Host) leads to gophernicus (GophernicusPort).
	ToxiGopherPort = 27070
	// ToxiNNTPPort (on Host) leads to INN (NNTPPort).
	ToxiNNTPPort = 21119
	// ToxiFTPPort (on ToxiFTPHost) leads to vsftpd's control port
	// (VsftpdPort).
	ToxiFTPPort = 22121
	// ToxiSFTPPort (on Host) leads to sshd's SFTPPort. Its proxy is not
	// in ToxiproxyProxies (the service's config file): the sftp tests
	// make it at run time (ToxiSFTPProxy), so that adding it needed no
	// restart of a running stack.
	ToxiSFTPPort = 22222
)

// ToxiFTPHost is the address of the FTP proxies: IPv6 loopback, so that
// they can listen on the very port numbers of vsftpd's passive range
// (VsftpdPasvMin–VsftpdPasvMax), which vsftpd binds on Host. A client that
// reaches vsftpd through ToxiFTPPort opens its data connection to the port
// the EPSV reply names on the control connection's host, ToxiFTPHost: that
// is the data proxy of the same number, so data connections pass through
// toxiproxy too, and vsftpd sees both from 127.0.0.1 as usual.
const ToxiFTPHost = "::1"

// Names of toxiproxy's proxies (ToxiproxyProxies). The passive data port p
// of vsftpd has the proxy ToxiFTPData(p).
const (
	// ToxiHTTP is the proxy in front of nginx's plain HTTP.
	ToxiHTTP = Nginx
	// ToxiGopher is the proxy in front of gophernicus.
	ToxiGopher = Gophernicus
	// ToxiNNTP is the proxy in front of INN.
	ToxiNNTP = INN
	// ToxiFTP is the proxy in front of vsftpd's control connection.
	ToxiFTP = Vsftpd
)

// ToxiSFTP is the name of the proxy in front of sshd (ToxiSFTPProxy).
const ToxiSFTP = SFTP

// ToxiSFTPProxy is the proxy in front of sshd's SFTPPort, listening on
// ToxiSFTPPort, which the tests that need it make through toxiproxy's API
// and delete when they end.
func ToxiSFTPProxy() ToxiproxyProxy {
	return ToxiproxyProxy{ToxiSFTP, Addr(ToxiSFTPPort), Addr(SFTPPort), true}
}

// ToxiFTPData returns the name of the proxy in front of vsftpd's passive
// data port port.
func ToxiFTPData(port int) string { return Vsftpd + "-data-" + strconv.Itoa(port) }

// ToxiproxyProxy is one proxy of the toxiproxy service, with the field names
// of toxiproxy's JSON config (its -config file and POST /populate).
type ToxiproxyProxy struct {
	// Name identifies the proxy in the API (/proxies/{name}/toxics).
	Name string `json:"name"`
	// Listen is the address the proxy accepts connections on.
	Listen string `json:"listen"`
	// Upstream is the server it connects each accepted connection to.
	Upstream string `json:"upstream"`
	// Enabled proxies listen from the start.
	Enabled bool `json:"enabled"`
}

// ToxiproxyProxies lists every proxy of the toxiproxy service, in the order
// of its config file (ToxiproxyConfigFile, which a unit test keeps equal to
// this list).
func ToxiproxyProxies() []ToxiproxyProxy {
	ftp := func(port int) string { return net.JoinHostPort(ToxiFTPHost, strconv.Itoa(port)) }
	ps := []ToxiproxyProxy{
		{ToxiHTTP, Addr(ToxiHTTPPort), Addr(HTTPPort), true},
		{ToxiGopher, Addr(ToxiGopherPort), Addr(GophernicusPort), true},
		{ToxiNNTP, Addr(ToxiNNTPPort), Addr(NNTPPort), true},
		{ToxiFTP, ftp(ToxiFTPPort), Addr(VsftpdPort), true},
	}
	for p := VsftpdPasvMin; p <= VsftpdPasvMax; p++ {
		ps = append(ps, ToxiproxyProxy{ToxiFTPData(p), ftp(p), Addr(p), true})
	}
	return ps
}

// ToxiproxyConfigFile returns the path of the toxiproxy service's config
// file in the repository (integration/servers/toxiproxy/proxies.json).
func ToxiproxyConfigFile() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "servers", "toxiproxy", "proxies.json")
}
