package transport

import (
	"fmt"
	"slices"

	"github.com/urlget/urlget/schemes"
)

// restrictedPort is one entry of the WHATWG Fetch "bad ports" list: the
// protocol that owns the port, and the URL schemes for which connecting to
// it is that protocol's own business rather than a cross-protocol attack.
type restrictedPort struct {
	proto  string
	owners []string
}

// restrictedPorts is the WHATWG Fetch "bad port" list
// (https://fetch.spec.whatwg.org/#bad-port), the browsers' answer to the
// threat RFC 1738 §6 describes: a URL that names another protocol's port so
// that a harmless retrieval delivers commands to, say, an SMTP server.
var restrictedPorts = map[int]restrictedPort{
	1:     {"tcpmux", nil},
	7:     {"echo", nil},
	9:     {"discard", nil},
	11:    {"systat", nil},
	13:    {"daytime", nil},
	15:    {"netstat", nil},
	17:    {"qotd", nil},
	19:    {"chargen", nil},
	20:    {"ftp-data", []string{"ftp"}},
	21:    {"ftp", []string{"ftp"}},
	22:    {"ssh", nil},
	23:    {"telnet", []string{"telnet", "tn3270"}},
	25:    {"smtp", []string{"smtp", "mailto"}},
	37:    {"time", nil},
	42:    {"name", nil},
	43:    {"nicname", nil},
	53:    {"domain", nil},
	69:    {"tftp", nil},
	77:    {"priv-rjs", nil},
	79:    {"finger", nil},
	87:    {"ttylink", nil},
	95:    {"supdup", nil},
	101:   {"hostname", nil},
	102:   {"iso-tsap", nil},
	103:   {"gppitnp", nil},
	104:   {"acr-nema", nil},
	109:   {"pop2", nil},
	110:   {"pop3", nil},
	111:   {"sunrpc", nil},
	113:   {"auth", nil},
	115:   {"sftp", nil},
	117:   {"uucp-path", nil},
	119:   {"nntp", []string{"nntp", "news"}},
	123:   {"ntp", nil},
	135:   {"epmap", nil},
	137:   {"netbios-ns", nil},
	139:   {"netbios-ssn", nil},
	143:   {"imap", nil},
	161:   {"snmp", nil},
	179:   {"bgp", nil},
	389:   {"ldap", nil},
	427:   {"svrloc", nil},
	465:   {"smtp submission (TLS)", []string{"smtp", "mailto"}},
	512:   {"exec", nil},
	513:   {"login", []string{"rlogin"}},
	514:   {"shell", nil},
	515:   {"printer", nil},
	526:   {"tempo", nil},
	530:   {"courier", nil},
	531:   {"chat", nil},
	532:   {"netnews", nil},
	540:   {"uucp", nil},
	548:   {"afp", nil},
	554:   {"rtsp", nil},
	556:   {"remotefs", nil},
	563:   {"nntps", []string{"nntps", "news", "snews"}},
	587:   {"smtp submission", []string{"smtp", "mailto"}},
	601:   {"syslog-conn", nil},
	636:   {"ldaps", nil},
	989:   {"ftps-data", []string{"ftps"}},
	990:   {"ftps", []string{"ftps"}},
	993:   {"imaps", nil},
	995:   {"pop3s", nil},
	1719:  {"h323gatestat", nil},
	1720:  {"h323hostcall", nil},
	1723:  {"pptp", nil},
	2049:  {"nfs", nil},
	3659:  {"apple-sasl", nil},
	4045:  {"npp", nil},
	5060:  {"sip", nil},
	5061:  {"sips", nil},
	6000:  {"x11", nil},
	6566:  {"sane-port", nil},
	6665:  {"irc", nil},
	6666:  {"irc", nil},
	6667:  {"irc", nil},
	6668:  {"irc", nil},
	6669:  {"irc", nil},
	6697:  {"ircs", nil},
	10080: {"amanda", nil},
}

// CheckPort applies the port policy of RFC 1738 §6 before a connection is
// made on behalf of scheme. A port on the browsers' restricted list is
// refused unless it belongs to scheme (21 for ftp, 119 for nntp, 25 for the
// mailto submission handler, the scheme's default port), or is listed in
// allow, the user's explicit exceptions (--allow-port). The error is a
// *schemes.Error of KindSafety with Part "port"; a port outside 1-65535 is
// KindUsage.
func CheckPort(scheme string, port int, allow []int) error {
	if port < 1 || port > 65535 {
		return &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindUsage, Part: "port",
			Msg: fmt.Sprintf("port %d is out of range (want 1-65535)", port)}
	}
	r, bad := restrictedPorts[port]
	if !bad || slices.Contains(allow, port) || port == schemes.DefaultPort(scheme) ||
		slices.Contains(r.owners, scheme) {
		return nil
	}
	return &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindSafety, Part: "port", Setting: SettingAllowPorts,
		Msg: fmt.Sprintf("port %d is reserved for %s; refusing to send %s requests there", port, r.proto, scheme)}
}

// reservedFor reports whether port is on the restricted list and, if
// so, the protocol it is reserved for.
func reservedFor(port int) (proto string, ok bool) {
	r, ok := restrictedPorts[port]
	return r.proto, ok
}
