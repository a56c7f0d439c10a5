package prospero

import (
	"fmt"
	"net/netip"
	"os"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// An ACCESS-METHOD value is `METHOD HOST-TYPE HOST HSONAME-TYPE HSONAME
// [extra]`; elements given as '' default to the link's (for a URL lookup:
// the URL's) host and hsoname (prospero-notes §7).

// Access methods urlget turns into URLs, and the one it fetches itself.
const (
	methodAFTP     = "AFTP"
	methodFTP      = "FTP"
	methodGopher   = "GOPHER"
	methodTelnet   = "TELNET"
	methodLocal    = "LOCAL"
	methodContents = "PROSPERO-CONTENTS"
)

// hostPort splits "name(port)" into "name:port" (the port kept only when
// given); "name" stays as it is.
func hostPort(h string) string {
	if i := strings.IndexByte(h, '('); i > 0 && strings.HasSuffix(h, ")") {
		return strings.ToLower(h[:i]) + ":" + h[i+1:len(h)-1]
	}
	return strings.ToLower(h)
}

// methodURL is the URL an access method designates (notes §7), "" for a
// method urlget does not fetch by URL (PROSPERO-CONTENTS, LOCAL, AFS,
// NFS, RCP, WAIS, TN3270, unknown ones); why says which.
func methodURL(m []string, defHost, defHsoname string) (url, why string) {
	get := func(i int, def string) string {
		if i < len(m) && m[i] != "" {
			return m[i]
		}
		return def
	}
	host, hso, extra := hostPort(get(2, defHost)), get(4, defHsoname), get(5, "")
	var raw string
	switch m[0] {
	case methodAFTP, methodFTP:
		typ := "i"
		if extra == "TEXT" || extra == "ASCII" {
			typ = "a"
		}
		var segs []string
		for _, s := range strings.Split(strings.TrimPrefix(hso, "/"), "/") {
			segs = append(segs, schemes.Escape(s, "/;?#"))
		}
		path := strings.Join(segs, "/")
		if strings.HasPrefix(hso, "/") {
			path = "%2F" + path // the name is absolute: RETR it as the ISI retriever does
		}
		raw = "ftp://" + host + "/" + path + ";type=" + typ
	case methodGopher:
		t := extra
		switch {
		case t == "TEXT":
			t = "0"
		case t == "BINARY":
			t = "9"
		case t == "" && hso != "":
			t = hso[:1] // five elements: the selector's first character
		}
		if len(t) != 1 {
			return "", fmt.Sprintf("GOPHER item type %q", t)
		}
		raw = "gopher://" + host + "/" + t + schemes.Escape(hso, "?#")
	case methodTelnet:
		raw = "telnet://" + host + "/"
	case methodContents:
		return "", "the contents come from the Prospero server itself"
	case methodLocal:
		return "", "LOCAL names a file on the server's own host"
	default:
		return "", fmt.Sprintf("access method %s is not supported", m[0])
	}
	if _, err := schemes.Parse(raw); err != nil {
		return "", fmt.Sprintf("access method %s gives no valid URL (%v)", m[0], err)
	}
	return raw, ""
}

// localURL is the file: URL of a LOCAL access method (notes §7), when
// allowed and the server is this host; why says otherwise, naming the
// option that allows it in words.
func localURL(m []string, server, hsoname string, allowed bool, words schemes.Words) (url, why string) {
	if !allowed {
		return "", "LOCAL names a file on the server's own host (" + words.Option("prospero-local") + " uses it when that is this host)"
	}
	if !thisHost(server) {
		return "", "LOCAL names a file on " + server + ", which is not this host"
	}
	p := hsoname
	if len(m) > 4 && m[4] != "" {
		p = m[4]
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Sprintf("LOCAL path %q is not absolute", p)
	}
	return "file://" + schemes.Escape(p, "?#;"), ""
}

// thisHost says host is a loopback address, "localhost" or this host's
// name.
func thisHost(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.IsLoopback()
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	name, err := os.Hostname()
	return err == nil && strings.EqualFold(host, name)
}
