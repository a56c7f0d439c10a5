// Package testbed describes the container test bed that the integration
// tests of urlget run against: the loopback ports of every server, the
// accounts, the generated fixture tree and where each server's protocol log,
// the SMTP maildir and the HTTPS CA certificate can be read on the host.
//
// The stack is defined in docker-compose.yml at the repository root and is
// managed with integration/stack.sh (see integration/README.md). Every server
// runs with host networking and binds 127.0.0.1 only.
package testbed

import (
	"os"
	"path/filepath"
	"runtime"
)

// Host is the address every test server binds to.
const Host = "127.0.0.1"

// Ports of the servers (all on Host).
const (
	// VsftpdPort is the control port of vsftpd 3.0.3.
	VsftpdPort = 2121
	// VsftpdFTPSPort is vsftpd 3.0.3 serving implicit FTPS (ftps://): TLS
	// from the first byte, required for logins and data, with TLS session
	// reuse required on data connections (see FTPSCertFile).
	VsftpdFTPSPort = 2990
	// ProftpdPort is the control port of proftpd 1.3.8.
	ProftpdPort = 2122
	// PureftpdPort is the control port of pure-ftpd 1.0.50.
	PureftpdPort = 2123
	// HTTPPort is nginx serving the fixture tree over plain HTTP.
	HTTPPort = 8080
	// HTTPSPort is nginx serving the fixture tree over TLS (see CACertFile).
	HTTPSPort = 8443
	// GatewayCachePort is nginx as a caching reverse proxy (proxy_cache,
	// 1 MiB of keys, 64 MiB on disk) in front of two `urlget serve`
	// replicas that a test starts, on GatewayReplicas: the gateway
	// example of README's caching section. It says X-Cache-Status
	// ($upstream_cache_status) and X-Upstream ($upstream_addr).
	GatewayCachePort = 8090
	// GophernicusPort is gophernicus 3.1.1 (plain Gopher) under xinetd.
	GophernicusPort = 7070
	// GophersPort is the same gophernicus behind stunnel 5: gophers://
	// (gopher over TLS) with the server certificate of CACertFile's CA. Its
	// menus name this port, so their items stay on TLS.
	GophersPort = 7443
	// PygopherdPort is pygopherd 3.0.0 (Gopher+).
	PygopherdPort = 7071
	// GeminiPort is molly-brown (Debian's), a gemini server, with a
	// self-signed certificate made when its container starts.
	GeminiPort = 1965
	// GeminiOtherPort is a second molly-brown on the same capsule with a
	// certificate of its own: a server whose certificate "changed".
	GeminiOtherPort = 1966
	// GopherPlusPort is urlget's own Gopher+ server (integration/gopherplus),
	// which also receives +ASK forms.
	GopherPlusPort = 7072
	// NNTPPort is INN 2.7.1 (innd handing readers to nnrpd).
	NNTPPort = 1119
	// TelnetPort is inetutils-telnetd 2.4 under xinetd (real telnet, login(1)).
	TelnetPort = 2323
	// LinePort is the plain CRLF line service (no telnet negotiation) under xinetd.
	LinePort = 2324
	// SMTPPort is aiosmtpd 1.4.3 delivering into the maildir (see MailDir).
	SMTPPort = 2525
	// ProxyPort is tinyproxy 1.11.1, an HTTP proxy without upstream that
	// requires Basic proxy authentication (ProxyUser, ProxyPassword). It
	// forwards absolute-form requests (GET http://host:port/path) and tunnels
	// CONNECT only to ports 443, 563 and 8443 (HTTPSPort); CONNECT to any
	// other port, such as HTTPPort, is refused with 403.
	ProxyPort = 3128
	// WAISPort is urlget's WAIS server (integration/waisd), a stand-in
	// for freeWAIS-sf 2.2.10 serving the database "demo".
	WAISPort = 2210
	// ProsperoPort is urlget's Prospero server (integration/dirsrv), a
	// stand-in for the ISI dirsrv, on UDP; ProsperoAltPort is its second
	// listener (redirects, forwards, links to "another server").
	ProsperoPort    = 1525
	ProsperoAltPort = 1526
	// FingerPort is efingerd (Debian) under xinetd: RFC 1288's port 79
	// is privileged, the test bed binds unprivileged ports only.
	FingerPort = 7979
	// SFTPPort is OpenSSH's sshd with its sftp-server.
	SFTPPort = 2222
	// YazPort is yaz-ztest (Debian yaz 5.34), YAZ's Z39.50 test server:
	// RFC 2056's port 210 is privileged, the test bed binds unprivileged
	// ports only.
	YazPort = 2100
	// ZebraPort is Zebra (Debian idzebra-2.0 2.2.7), Index Data's
	// indexing Z39.50 server, over the MARC 21 catalogue of
	// ZebraRecord in the databases ZebraBooks and ZebraJournals.
	ZebraPort = 2101
	// LDAPPort is OpenLDAP's slapd (ldap, StartTLS), LDAPSPort the same
	// over TLS from the start: ports 389 and 636 are privileged.
	LDAPPort  = 3389
	LDAPSPort = 3636
)

// The slapd directory (integration/servers/slapd/fixture.sh).
const (
	// LDAPSuffix is the directory's root entry.
	LDAPSuffix = "dc=example,dc=org"
	// LDAPBindDN binds with LDAPBindPassword.
	LDAPBindDN       = "cn=reader,dc=example,dc=org"
	LDAPBindPassword = "reader-secret"
	// LDAPAdminDN, the rootdn, binds with LDAPAdminPassword: the one
	// login that may change the directory (the tests that do so work in
	// a subtree of their own, and remove it).
	LDAPAdminDN       = "cn=admin,dc=example,dc=org"
	LDAPAdminPassword = "admin-secret"
	// LDAPBenchDN holds LDAPBenchEntries entries, one level down.
	LDAPBenchDN      = "ou=bench,dc=example,dc=org"
	LDAPBenchEntries = 10000
)

// Passive data port ranges of the FTP servers (inclusive).
const (
	// VsftpdPasvMin is the lowest passive port of vsftpd.
	VsftpdPasvMin = 30000
	// VsftpdPasvMax is the highest passive port of vsftpd.
	VsftpdPasvMax = 30099
	// VsftpdFTPSPasvMin is the lowest passive port of the implicit FTPS vsftpd.
	VsftpdFTPSPasvMin = 30400
	// VsftpdFTPSPasvMax is the highest passive port of the implicit FTPS vsftpd.
	VsftpdFTPSPasvMax = 30499
	// ProftpdPasvMin is the lowest passive port of proftpd. Its range is
	// wider than the others': proftpd answers 425 "Address already in
	// use" when a few random picks in its range are taken, which with 100
	// ports and eight parallel sessions failed about one mirror of the
	// 2,000-file fixture tree in three.
	ProftpdPasvMin = 31000
	// ProftpdPasvMax is the highest passive port of proftpd.
	ProftpdPasvMax = 31999
	// PureftpdPasvMin is the lowest passive port of pure-ftpd.
	PureftpdPasvMin = 30200
	// PureftpdPasvMax is the highest passive port of pure-ftpd.
	PureftpdPasvMax = 30399
)

// Accounts.
const (
	// AliceUser is the local Unix user on the FTP and telnet servers.
	AliceUser = "alice"
	// AlicePassword is AliceUser's password.
	AlicePassword = "secret"
	// AliceHome is AliceUser's home directory (the login directory of FTP
	// sessions as alice; it is not "/" and local users are not chrooted).
	AliceHome = "/home/alice"
	// AliceReadme is the content of AliceHome/README.txt (differs from the
	// anonymous root's README.txt, see FixtureFiles).
	AliceReadme = "This is alice's home directory (not the anonymous FTP root).\n"
	// AliceSubNote is the content of AliceHome/sub/note.txt.
	AliceSubNote = "alice sub note\n"
	// NNTPUser is the NNTP AUTHINFO user (the server also allows anonymous
	// reading and posting).
	NNTPUser = "reader"
	// NNTPPassword is NNTPUser's AUTHINFO password.
	NNTPPassword = "readpass"
	// ProxyUser is the Basic proxy authentication user of tinyproxy
	// (ProxyPort). A request without credentials gets 407 with
	// Proxy-Authenticate; wrong credentials get 401 with WWW-Authenticate
	// (tinyproxy 1.11.1's behaviour, fixed upstream later).
	ProxyUser = "proxyuser"
	// ProxyPassword is ProxyUser's password.
	ProxyPassword = "proxypass"
)

// Service names as used in docker-compose.yml and under LogDir.
const (
	// Vsftpd is the compose service of vsftpd.
	Vsftpd = "vsftpd"
	// VsftpdFTPS is the compose service of vsftpd serving implicit FTPS.
	VsftpdFTPS = "vsftpd-ftps"
	// Proftpd is the compose service of proftpd.
	Proftpd = "proftpd"
	// Pureftpd is the compose service of pure-ftpd.
	Pureftpd = "pureftpd"
	// Nginx is the compose service of nginx (HTTP and HTTPS).
	Nginx = "nginx"
	// Gophernicus is the compose service of gophernicus.
	Gophernicus = "gophernicus"
	// GophernicusTLS is the compose service of gophernicus behind stunnel
	// (GophersPort).
	GophernicusTLS = "gophernicus-tls"
	// Pygopherd is the compose service of pygopherd.
	Pygopherd = "pygopherd"
	// Gemini is the compose service of the molly-brown gemini servers.
	Gemini = "gemini"
	// GopherPlus is the compose service of urlget's Gopher+ server.
	GopherPlus = "gopherplus"
	// INN is the compose service of INN 2.
	INN = "inn2"
	// Telnetd is the compose service of telnetd and the line service.
	Telnetd = "telnetd"
	// Tinyproxy is the compose service of the tinyproxy HTTP proxy.
	Tinyproxy = "tinyproxy"
	// SMTP is the compose service of aiosmtpd.
	SMTP = "aiosmtpd"
	// WAIS is the compose service of urlget's WAIS server.
	WAIS = "waisd"
	// Prospero is the compose service of urlget's Prospero server.
	Prospero = "dirsrv"
	// Finger is the compose service of efingerd.
	Finger = "finger"
	// SFTP is the compose service of OpenSSH's sshd (SFTPPort).
	SFTP = "sftp"
	// Yaz is the compose service of yaz-ztest (YazPort).
	Yaz = "yaz"
	// Zebra is the compose service of Zebra (ZebraPort).
	Zebra = "zebra"
	// Slapd is the compose service of OpenLDAP's slapd (LDAPPort, LDAPSPort).
	Slapd = "slapd"
)

// SFTPKeyUser logs in to SFTPPort with the key SFTPKeyFile only (AliceUser
// with AlicePassword).
const SFTPKeyUser = "bob"

// SSHDir is where the sftp service keeps its host key and the key pair
// of SFTPKeyUser, made when it first starts.
func SSHDir() string { return filepath.Join(RunDir(), "ssh") }

// SFTPKeyFile is SFTPKeyUser's private key.
func SFTPKeyFile() string { return filepath.Join(SSHDir(), "bob_ed25519") }

// SFTPHostKeyFile is the sftp service's public host key (OpenSSH's
// one-line format).
func SFTPHostKeyFile() string { return filepath.Join(SSHDir(), "ssh_host_ed25519_key.pub") }

// RunDir returns the host directory shared with the containers
// (integration/.run). The environment variable URLGET_TESTBED_RUN overrides it.
func RunDir() string {
	if d := os.Getenv("URLGET_TESTBED_RUN"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("integration", ".run")
	}
	return filepath.Join(filepath.Dir(file), "..", ".run")
}

// FixtureDir returns the host path of the generated fixture tree that the
// FTP, HTTP and Gopher servers serve (mounted read-only at /srv/fixtures).
func FixtureDir() string { return filepath.Join(RunDir(), "fixtures") }

// MailDir returns the host path of the Maildir into which aiosmtpd delivers
// every message (one file per message in MailDir()/new).
func MailDir() string { return filepath.Join(RunDir(), "mail") }

// CACertFile returns the host path of the PEM CA certificate that signed the
// nginx HTTPS certificate (written by the nginx container at start).
func CACertFile() string { return filepath.Join(RunDir(), "certs", "ca.pem") }

// FTPSCertFile returns the host path of the self-signed PEM certificate
// (CN and SAN 127.0.0.1) that an FTPS service (Pureftpd, VsftpdFTPS) makes
// at start and publishes in its log directory.
func FTPSCertFile(service string) string { return filepath.Join(LogDir(service), "ftps-cert.pem") }

// ServerCertFile returns the host path of nginx's PEM server certificate
// (subject CN=127.0.0.1, SANs IP:127.0.0.1, DNS:localhost).
func ServerCertFile() string { return filepath.Join(RunDir(), "certs", "server.pem") }

// GatewayReplicas are the addresses nginx's GatewayCachePort server
// proxies to, in turn (an upstream of two): a test starts `urlget serve
// --listen ADDR --host 127.0.0.1:8090` on each, since nginx passes the
// client's Host on.
var GatewayReplicas = []string{"127.0.0.1:8071", "127.0.0.1:8072"}
