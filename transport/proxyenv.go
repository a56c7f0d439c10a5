package transport

import (
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// ProxyFromEnvironment chooses a proxy the way curl does:
//
//   - no_proxy (or NO_PROXY), a list separated by commas or spaces, turns
//     proxying off for matching hosts: "*" matches every host; a name
//     matches itself and its subdomains, with or without a leading dot
//     ("example.com" and ".example.com" both match www.example.com); an IP
//     address or CIDR block matches hosts given as addresses in it; an
//     entry may end in ":port" to match only that port;
//   - otherwise <scheme>_proxy is used, lower case first, then upper case,
//     except that HTTP_PROXY is ignored because a CGI program's environment
//     carries the request's "Proxy:" header in it ("httpoxy");
//   - otherwise all_proxy, then ALL_PROXY.
//
// A value without "scheme://" is an http proxy. Empty values count as
// unset. It returns nil for a direct connection, and a KindUsage error
// (with the proxy's password redacted) for a value it cannot use.
func ProxyFromEnvironment(scheme, host string, port int) (*url.URL, error) {
	if noProxy(host, port, getenv("no_proxy", "NO_PROXY")) {
		return nil, nil
	}
	upper := strings.ToUpper(scheme) + "_PROXY"
	if upper == cgiProxyHeader {
		upper = ""
	}
	v := getenv(scheme+"_proxy", upper)
	if v == "" {
		v = getenv("all_proxy", "ALL_PROXY")
	}
	if v == "" {
		return nil, nil
	}
	return ParseProxy(v)
}

// cgiProxyHeader is the variable in which a CGI program finds the
// request's "Proxy:" header field (RFC 3875 §4.1.18: HTTP_ and the field's
// name), which whoever sent the request chose: never a proxy setting
// ("httpoxy"). It is the upper-case spelling of http_proxy, so that one
// is read in lower case only.
const cgiProxyHeader = "HTTP_PROXY"

// getenv returns the first non-empty of the named variables.
func getenv(names ...string) string {
	for _, n := range names {
		if n == "" {
			continue
		}
		if v := strings.TrimSpace(os.Getenv(n)); v != "" {
			return v
		}
	}
	return ""
}

// ParseProxy reads a proxy setting such as "proxy:3128",
// "http://user:pw@proxy:3128" or "socks5h://127.0.0.1:1080". A missing
// scheme means http; curl's default port 1080 (443 for https) applies
// later when none is given.
func ParseProxy(v string) (*url.URL, error) {
	if !strings.Contains(v, "://") {
		v = proxyHTTP + "://" + v
	}
	u, err := url.Parse(v)
	if err != nil || u.Hostname() == "" {
		return nil, &schemes.Error{Phase: "proxy", Kind: schemes.KindUsage, Part: "proxy",
			URL: schemes.RedactString(v), Msg: "cannot read proxy URL"}
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch u.Scheme {
	case proxyHTTP, proxyHTTPS, proxySOCKS5, proxySOCKS5H:
	default:
		return nil, &schemes.Error{Phase: "proxy", Kind: schemes.KindUnsupported, Part: "proxy",
			URL: u.Redacted(), Msg: fmt.Sprintf("unsupported proxy scheme %q (want http, https, socks5 or socks5h)", u.Scheme)}
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, &schemes.Error{Phase: "proxy", Kind: schemes.KindUsage, Part: "proxy",
				URL: u.Redacted(), Msg: fmt.Sprintf("bad proxy port %q", p)}
		}
	}
	return u, nil
}

// noProxy reports whether host:port matches the no_proxy list.
func noProxy(host string, port int, list string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	addr, addrErr := netip.ParseAddr(host)
	isIP := addrErr == nil
	for _, entry := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		entry = strings.ToLower(entry)
		if entry == "*" {
			return true
		}
		pat, entryPort := splitEntryPort(entry)
		if entryPort != 0 && entryPort != port {
			continue
		}
		if isIP {
			if pfx, err := netip.ParsePrefix(pat); err == nil {
				if pfx.Contains(addr.Unmap()) || pfx.Contains(addr) {
					return true
				}
				continue
			}
			if a, err := netip.ParseAddr(pat); err == nil && a.Unmap() == addr.Unmap() {
				return true
			}
			continue
		}
		pat = strings.TrimSuffix(strings.TrimPrefix(pat, "."), ".")
		if pat == "" {
			continue
		}
		if host == pat || strings.HasSuffix(host, "."+pat) {
			return true
		}
	}
	return false
}

// splitEntryPort splits "host:port", "[v6]:port" or a bare entry; a bare
// IPv6 address or CIDR keeps its colons.
func splitEntryPort(entry string) (string, int) {
	if strings.HasPrefix(entry, "[") {
		end := strings.IndexByte(entry, ']')
		if end < 0 {
			return entry, 0
		}
		host, rest := entry[1:end], entry[end+1:]
		if p, ok := strings.CutPrefix(rest, ":"); ok {
			n, _ := strconv.Atoi(p)
			return host, n
		}
		return host + rest, 0 // "[::1]/128" style
	}
	if strings.Count(entry, ":") != 1 {
		return entry, 0
	}
	h, p, _ := strings.Cut(entry, ":")
	n, err := strconv.Atoi(p)
	if err != nil {
		return entry, 0
	}
	return h, n
}
