package schemes

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// URL is the generic, scheme-independent reading of an absolute URL:
// `scheme ":" scheme-specific-part` (RFC 1738 §2.1), and, when the
// scheme-specific part starts with "//", the common Internet scheme syntax
// `//user:password@host:port/url-path` of §3.1.
//
// User and Password are decoded and distinguish absent (nil) from empty:
// "ftp://@host.com/" has an empty user, "ftp://host.com/" none. Path and
// Opaque stay escaped exactly as written, because only the scheme knows
// which of their characters are reserved.
type URL struct {
	Scheme    string  // lower-case
	Opaque    string  // scheme-specific part as written (fragment removed); for common syntax, after the authority
	Authority bool    // the scheme-specific part used the common Internet syntax
	User      *string // decoded user name; nil if absent
	Password  *string // decoded password; nil if absent
	Host      string  // lower-case ASCII (IDNA applied); IPv6 without brackets, in RFC 5952 form
	Port      int     // 0 if absent
	HasPath   bool    // a "/" followed the host (the "/" is not part of Path)
	Path      string  // url-path, escaped as written
	Fragment  *string // fragment identifier as written after the first "#"; nil if none
	// DefaultPort is the scheme's default port (Name.Port of its
	// declaration), which the scheme's parser sets: Parse alone knows no
	// scheme's port and leaves it 0, as does a scheme whose URLs name no
	// host. EffectivePort falls back to it, and the canonical form leaves
	// out a Port equal to it.
	DefaultPort int
}

// EffectivePort is the URL's port, or its scheme's default (DefaultPort)
// when absent.
func (u *URL) EffectivePort() int {
	if u.Port != 0 {
		return u.Port
	}
	return u.DefaultPort
}

// HostPort is "host:port" for dialing, with IPv6 hosts bracketed and the
// default port applied.
func (u *URL) HostPort() string {
	return joinHostPort(u.Host, u.EffectivePort())
}

func joinHostPort(host string, port int) string {
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	if port == 0 {
		return host
	}
	return host + ":" + strconv.Itoa(port)
}

// AuthorityString formats "//user:password@host:port" with user and password
// escaped (":", "@" and "/" encoded as §3.1 requires). With redact the
// password is written as "****".
func (u *URL) AuthorityString(redact bool) string {
	var b strings.Builder
	b.WriteString("//")
	if u.User != nil {
		b.WriteString(Escape(*u.User, ":@/?;"))
		if u.Password != nil {
			b.WriteByte(':')
			if redact {
				b.WriteString(Redacted)
			} else {
				b.WriteString(Escape(*u.Password, ":@/?;"))
			}
		}
		b.WriteByte('@')
	}
	b.WriteString(joinHostPort(u.Host, u.Port))
	return b.String()
}

// String formats the generic URL. Scheme packages format their typed values
// themselves; this is for schemes whose parts urlget does not interpret.
func (u *URL) String() string { return u.format(false) }

// Redacted formats the URL with its password replaced by "****".
func (u *URL) Redacted() string { return u.format(true) }

func (u *URL) format(redact bool) string {
	var b strings.Builder
	b.WriteString(u.Scheme)
	b.WriteByte(':')
	if u.Authority {
		b.WriteString(u.AuthorityString(redact))
		if u.HasPath {
			b.WriteByte('/')
			b.WriteString(u.Path)
		}
	} else {
		b.WriteString(u.Opaque)
	}
	if u.Fragment != nil {
		b.WriteByte('#')
		b.WriteString(*u.Fragment)
	}
	return b.String()
}

// Trim strips what surrounds a URL in text but is not part of it (RFC 1738
// appendix): surrounding whitespace, the "<" ">" wrapper, and the "URL:"
// prefix, in any combination and any letter case.
//
// It strips until nothing is left to strip: with a single pass,
// "URL:URL:x:y" parsed with scheme "url" but formatted as "url:x:y", which
// parses with scheme "x" — String did not round-trip.
func Trim(raw string) string {
	s := strings.TrimSpace(raw)
	for {
		n := len(s)
		if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
			s = strings.TrimSpace(s[1 : len(s)-1])
		}
		if len(s) >= 4 && strings.EqualFold(s[:4], "URL:") {
			s = strings.TrimSpace(s[4:])
		}
		if len(s) == n {
			return s
		}
	}
}

// SplitScheme splits "scheme:rest" and checks the scheme's characters
// (letters, digits, "+", "-", "." — RFC 1738 §2.1). The scheme is returned
// lower-case.
func SplitScheme(s string) (scheme, rest string, err error) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", fmt.Errorf("no scheme (want scheme:...)")
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			return "", "", fmt.Errorf("bad character %q in scheme", c)
		}
	}
	return strings.ToLower(s[:i]), s[i+1:], nil
}

// Parse reads raw as an absolute URL in the generic syntax. It strips the
// "<URL:...>" wrapper, keeps the fragment apart, checks every escape, and
// reads the common Internet syntax when the scheme-specific part starts with
// "//". It does not interpret the url-path: that is the scheme's job
// (Registry.Parse does both).
func Parse(raw string) (*URL, error) {
	s := Trim(raw)
	scheme, rest, err := SplitScheme(s)
	if err != nil {
		return nil, SyntaxError("", raw, "scheme", err.Error())
	}
	// One allocation holds the URL and the strings its pointers point to.
	st := &urlStorage{URL: URL{Scheme: scheme}}
	u := &st.URL
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		frag := rest[i+1:]
		if err := CheckEscapes(frag); err != nil {
			return nil, SyntaxError(scheme, raw, "fragment", err.Error())
		}
		st.fragment = frag
		u.Fragment = &st.fragment
		rest = rest[:i]
	}
	if err := CheckEscapes(rest); err != nil {
		return nil, SyntaxError(scheme, raw, "url", err.Error())
	}
	if !strings.HasPrefix(rest, "//") {
		u.Opaque = EscapeUnsafe(rest)
		return u, nil
	}
	u.Authority = true
	rest = rest[2:]
	auth := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		auth, u.HasPath, u.Path = rest[:i], true, EscapeUnsafe(rest[i+1:])
	}
	if err := st.parseAuthority(auth); err != nil {
		err.Scheme, err.URL = scheme, RedactString(raw)
		return nil, err
	}
	u.Opaque = EscapeUnsafe(rest[len(auth):])
	return u, nil
}

// urlStorage is a URL with room for the strings User, Password and Fragment
// point to, so that Parse allocates once.
type urlStorage struct {
	URL
	user, password, fragment string
}

func (st *urlStorage) parseAuthority(auth string) *Error {
	u := &st.URL
	hostport := auth
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		userinfo := auth[:at]
		hostport = auth[at+1:]
		user, pass, hasPass := strings.Cut(userinfo, ":")
		du, err := Unescape(user)
		if err != nil {
			return &Error{Phase: "parse", Kind: KindUsage, Part: "user", Msg: "bad user: " + err.Error()}
		}
		st.user = du
		u.User = &st.user
		if hasPass {
			dp, err := Unescape(pass)
			if err != nil {
				return &Error{Phase: "parse", Kind: KindUsage, Part: "password", Msg: "bad password: " + err.Error()}
			}
			st.password = dp
			u.Password = &st.password
		}
	}
	host, port, err := splitHostPort(hostport)
	if err != nil {
		return err
	}
	u.Host, u.Port = host, port
	return nil
}

func splitHostPort(hp string) (host string, port int, err *Error) {
	portText, hasPort := "", false
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return "", 0, &Error{Phase: "parse", Kind: KindUsage, Part: "host", Msg: fmt.Sprintf("bad host %q: missing ]", hp)}
		}
		host = hp[1:end]
		after := hp[end+1:]
		if after != "" {
			if after[0] != ':' {
				return "", 0, &Error{Phase: "parse", Kind: KindUsage, Part: "host", Msg: fmt.Sprintf("bad host %q", hp)}
			}
			portText, hasPort = after[1:], true
		}
		addr, perr := netip.ParseAddr(host)
		if perr != nil || !addr.Is6() {
			return "", 0, &Error{Phase: "parse", Kind: KindUsage, Part: "host", Msg: fmt.Sprintf("bad IPv6 address %q", host)}
		}
		if addr.Zone() != "" {
			// netip would take "%25eth0" as zone "25eth0", and any octet
			// (even a space) in it: refuse zones rather than mis-read them.
			return "", 0, &Error{Phase: "parse", Kind: KindUsage, Part: "host", Msg: fmt.Sprintf("bad IPv6 address %q: zone identifiers are not supported", host)}
		}
		// The RFC 5952 text (lower case, zeros compressed): one address,
		// one Host, whichever way it was written.
		host = addr.String()
	} else {
		if i := strings.LastIndexByte(hp, ':'); i >= 0 {
			hp, portText, hasPort = hp[:i], hp[i+1:], true
		}
		h, herr := normalizeHost(hp)
		if herr != nil {
			return "", 0, &Error{Phase: "parse", Kind: KindUsage, Part: "host", Msg: fmt.Sprintf("bad host %q: %v", hp, herr)}
		}
		host = h
	}
	if hasPort {
		n, perr := strconv.Atoi(portText)
		if perr != nil || n < 1 || n > 65535 || portText[0] == '+' || portText[0] == '-' {
			return "", 0, &Error{Phase: "parse", Kind: KindUsage, Part: "port", Msg: fmt.Sprintf("bad port %q (want 1-65535)", portText)}
		}
		port = n
	}
	return host, port, nil
}

// normalizeHost checks a host name or IPv4 address and returns it in lower
// case, converting an internationalized name to its ASCII (punycode) form.
func normalizeHost(h string) (string, error) {
	if h == "" {
		return "", nil
	}
	if strings.IndexByte(h, '%') >= 0 {
		d, err := Unescape(h)
		if err != nil {
			return "", err
		}
		h = d
	}
	if !isASCII(h) {
		if !utf8.ValidString(h) {
			return "", fmt.Errorf("not UTF-8")
		}
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return "", err
		}
		h = a
	}
	h = strings.ToLower(h)
	// Only digits and dots (IPv4) or a colon (IPv6) can make an address:
	// skipping ParseAddr otherwise saves the allocation of its error.
	if mayBeAddr(h) {
		if addr, err := netip.ParseAddr(h); err == nil {
			if addr.Is6() {
				return "", fmt.Errorf("an IPv6 address must be in brackets")
			}
			return h, nil
		}
	}
	for rest := strings.TrimSuffix(h, "."); ; {
		label, more, found := strings.Cut(rest, ".")
		rest = more
		if label == "" || len(label) > 63 {
			return "", fmt.Errorf("empty or overlong label")
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("bad character %q", c)
			}
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return "", fmt.Errorf("label %q starts or ends with '-'", label)
		}
		if !found {
			return h, nil
		}
	}
}

func mayBeAddr(h string) bool {
	for i := 0; i < len(h); i++ {
		if c := h[i]; c == ':' {
			return true
		} else if c != '.' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
