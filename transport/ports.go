package transport

import (
	"fmt"
	"slices"

	"github.com/urlget/urlget/schemes"
)

// Ports are the facts the port policy needs of the schemes a Dialer
// dials for. Each scheme declares them (schemes.Name's Port and
// OwnPorts), so this package keeps no table of scheme names:
// *schemes.Registry answers from the declarations it was built with, and
// a fetch Client gives its Registry to a Dialer that has none.
type Ports interface {
	// DefaultPort is scheme's default port, 0 if it has none.
	DefaultPort(scheme string) int
	// OwnsPort reports whether port belongs to scheme's protocol: its
	// default port, or another it declares (ftp's data port 20).
	OwnsPort(scheme string, port int) bool
}

// restrictedPorts is the WHATWG Fetch "bad port" list
// (https://fetch.spec.whatwg.org/#bad-port), the browsers' answer to the
// threat RFC 1738 §6 describes: a URL that names another protocol's port so
// that a harmless retrieval delivers commands to, say, an SMTP server.
// Each port maps to the protocol it is reserved for, by its IANA service
// name: protocol knowledge the refusal words ("reserved for ftp"), not the
// URL schemes allowed there, which the schemes declare (Ports).
var restrictedPorts = map[int]string{
	1:     "tcpmux",
	7:     "echo",
	9:     "discard",
	11:    "systat",
	13:    "daytime",
	15:    "netstat",
	17:    "qotd",
	19:    "chargen",
	20:    "ftp-data",
	21:    "ftp",
	22:    "ssh",
	23:    "telnet",
	25:    "smtp",
	37:    "time",
	42:    "name",
	43:    "nicname",
	53:    "domain",
	69:    "tftp",
	77:    "priv-rjs",
	79:    "finger",
	87:    "ttylink",
	95:    "supdup",
	101:   "hostname",
	102:   "iso-tsap",
	103:   "gppitnp",
	104:   "acr-nema",
	109:   "pop2",
	110:   "pop3",
	111:   "sunrpc",
	113:   "auth",
	115:   "sftp",
	117:   "uucp-path",
	119:   "nntp",
	123:   "ntp",
	135:   "epmap",
	137:   "netbios-ns",
	139:   "netbios-ssn",
	143:   "imap",
	161:   "snmp",
	179:   "bgp",
	389:   "ldap",
	427:   "svrloc",
	465:   "smtp submission (TLS)",
	512:   "exec",
	513:   "login",
	514:   "shell",
	515:   "printer",
	526:   "tempo",
	530:   "courier",
	531:   "chat",
	532:   "netnews",
	540:   "uucp",
	548:   "afp",
	554:   "rtsp",
	556:   "remotefs",
	563:   "nntps",
	587:   "smtp submission",
	601:   "syslog-conn",
	636:   "ldaps",
	989:   "ftps-data",
	990:   "ftps",
	993:   "imaps",
	995:   "pop3s",
	1719:  "h323gatestat",
	1720:  "h323hostcall",
	1723:  "pptp",
	2049:  "nfs",
	3659:  "apple-sasl",
	4045:  "npp",
	5060:  "sip",
	5061:  "sips",
	6000:  "x11",
	6566:  "sane-port",
	6665:  "irc",
	6666:  "irc",
	6667:  "irc",
	6668:  "irc",
	6669:  "irc",
	6697:  "ircs",
	10080: "amanda",
}

// CheckPort applies the port policy of RFC 1738 §6 before a connection is
// made on behalf of scheme. A port on the browsers' restricted list is
// refused unless d.Ports says scheme owns it (21 for ftp, 119 for nntp,
// 25 for mailto's submission), or it is one of AllowPorts, the user's
// explicit exceptions. The error is a *schemes.Error of KindSafety with
// Part "port" and Setting SettingAllowPorts; a port outside 1-65535 is
// KindUsage.
func (d *Dialer) CheckPort(scheme string, port int) error {
	if port < 1 || port > 65535 {
		return &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindUsage, Part: "port",
			Msg: fmt.Sprintf("port %d is out of range (want 1-65535)", port)}
	}
	proto, bad := restrictedPorts[port]
	if !bad || slices.Contains(d.AllowPorts, port) || (d.Ports != nil && d.Ports.OwnsPort(scheme, port)) {
		return nil
	}
	return &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindSafety, Part: "port", Setting: SettingAllowPorts,
		Msg: fmt.Sprintf("port %d is reserved for %s; refusing to send %s requests there", port, proto, scheme)}
}

// port is the port to dial for scheme, port 0 meaning its default (none
// without d.Ports, which CheckPort refuses), once the policy allows it.
func (d *Dialer) port(scheme string, port int) (int, error) {
	if port == 0 && d.Ports != nil {
		port = d.Ports.DefaultPort(scheme)
	}
	return port, d.CheckPort(scheme, port)
}

// reservedFor reports whether port is on the restricted list and, if
// so, the protocol it is reserved for.
func reservedFor(port int) (proto string, ok bool) {
	proto, ok = restrictedPorts[port]
	return proto, ok
}
