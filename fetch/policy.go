package fetch

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// Protocols is a set of scheme names, as curl's --proto and --proto-redir
// take them. A nil Protocols means "the default" wherever the Client reads
// one; an empty non-nil one allows nothing.
type Protocols map[string]bool

// Has reports whether scheme is in p.
func (p Protocols) Has(scheme string) bool { return p[scheme] }

// String lists the schemes, sorted, comma-separated.
func (p Protocols) String() string {
	names := make([]string, 0, len(p))
	for n, ok := range p {
		if ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// ParseProtocols reads curl's protocol list syntax, starting from base (the
// set in force before: every scheme for --proto, the redirectable ones for
// --proto-redir) within all (every scheme known): comma-separated names,
// each optionally prefixed by "+" (add; the default), "-" (remove) or "="
// (exactly these: the set starts empty), where "all" names every scheme.
// "=http,https" allows those two; "-all,+ftp" only ftp; "-telnet" all but
// telnet. An unknown name is an error, unlike curl, which only warns: a
// typo in a security setting should not pass silently.
func ParseProtocols(spec string, base, all Protocols) (Protocols, error) {
	out := Protocols{}
	for n, ok := range base {
		out[n] = ok
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		mod := byte('+')
		if strings.ContainsRune("+-=", rune(item[0])) {
			mod, item = item[0], item[1:]
		}
		name := strings.ToLower(item)
		var names []string
		switch {
		case name == "all":
			for n := range all {
				names = append(names, n)
			}
		case all[name]:
			names = []string{name}
		default:
			return nil, fmt.Errorf("unknown protocol %q in %q", item, spec)
		}
		if mod == '=' {
			clear(out)
		}
		for _, n := range names {
			if mod == '-' {
				delete(out, n)
			} else {
				out[n] = true
			}
		}
	}
	return out, nil
}

// AllProtocols is every scheme the Client's registry knows.
func (c *Client) AllProtocols() Protocols {
	p := Protocols{}
	for _, n := range c.registry().Names() {
		p[n] = true
	}
	return p
}

// DefaultRedirectProtocols is the set a redirect may reach when
// RedirectProtocols is nil: the registered schemes whose Caps are
// Redirectable — curl's default, http, https, ftp and ftps. A redirect is a
// URL a server chose; gopher, news, nntp, wais and prospero build their
// requests from a URL's parts, so they are reached only when the caller
// names them, and mailto, telnet and file never by default.
func (c *Client) DefaultRedirectProtocols() Protocols {
	p := Protocols{}
	r := c.registry()
	for _, n := range r.Names() {
		if s, _ := r.Lookup(n); s.Caps.Redirectable() {
			p[n] = true
		}
	}
	return p
}

// allowed applies Protocols to a URL the caller named.
func (c *Client) allowed(loc schemes.Locator) error {
	sch := loc.Generic().Scheme
	if c.Protocols == nil || c.Protocols.Has(sch) {
		return nil
	}
	return &schemes.Error{Scheme: sch, Phase: "policy", Kind: schemes.KindSafety, URL: loc.Redacted(), Part: "scheme",
		Setting: SettingProtocols, Msg: fmt.Sprintf("scheme %s is not allowed (allowed: %s)", sch, orNone(c.Protocols))}
}

// checkRedirect applies the redirect policy to a server's redirect from
// from to to: to's scheme must be in RedirectProtocols (by default a
// retrieval scheme), then CheckRedirect has its say. A refusal is
// KindSafety: nothing of to is started.
func (c *Client) checkRedirect(from, to schemes.Locator, hops int) error {
	allow, setting := c.RedirectProtocols, SettingRedirectProtocols
	says := "redirects may lead to"
	sch := to.Generic().Scheme
	if allow == nil {
		allow = c.DefaultRedirectProtocols()
		says = "by default redirects may only lead to"
		if sch == from.Generic().Scheme && c.Caps(from).Has(schemes.RedirectsWithin) {
			// The protocol's own redirect (gemini's 3x to another gemini
			// URL) reaches nothing the URL's scheme did not: allowed by
			// default, as http to http is.
			allow = Protocols{sch: true}
		}
	}
	if !allow.Has(sch) || (c.Protocols != nil && !c.Protocols.Has(sch)) {
		if c.Protocols != nil && !c.Protocols.Has(sch) {
			allow, setting, says = c.Protocols, SettingProtocols, "allowed:"
		}
		return &schemes.Error{Scheme: from.Generic().Scheme, Phase: "redirect", Kind: schemes.KindSafety,
			URL: from.Redacted(), Part: "location", Err: &RefusedRedirect{To: to.Redacted()}, Setting: setting,
			Msg: fmt.Sprintf("refusing the server's redirect to %s (%s %s)", to.Redacted(), says, orNone(allow))}
	}
	return c.askCheckRedirect(from, to, hops)
}

// RefusedRedirect is the cause (schemes.Error.Err) of a redirect the
// redirect policy refused: To is where the server pointed, redacted. A
// caller that shows the failure to a person can offer To as a link,
// which the person may follow by hand: then it is their choice, not the
// server's. Its text is empty; the Error says it all.
type RefusedRedirect struct{ To string }

func (*RefusedRedirect) Error() string { return "" }

// checkResolution applies the caller's rules to the URL a resolving
// scheme (Prospero) resolved from to: a resolution is the URL's own
// access method, not a redirect, so RedirectProtocols do not apply, but
// Protocols do, and CheckRedirect is asked (so that a gateway refuses a
// resolution back to itself), with n the resolutions before this one.
func (c *Client) checkResolution(from, to schemes.Locator, n int) error {
	if sch := to.Generic().Scheme; c.Protocols != nil && !c.Protocols.Has(sch) {
		return &schemes.Error{Scheme: from.Generic().Scheme, Phase: "resolve", Kind: schemes.KindSafety,
			URL: from.Redacted(), Part: "scheme", Setting: SettingProtocols,
			Msg: fmt.Sprintf("refusing the resolution to %s (allowed: %s)", to.Redacted(), orNone(c.Protocols))}
	}
	return c.askCheckRedirect(from, to, n)
}

// askCheckRedirect asks CheckRedirect, if set, about a hop from from to
// to; an error that is not a *schemes.Error is wrapped as a KindSafety
// refusal.
func (c *Client) askCheckRedirect(from, to schemes.Locator, hops int) error {
	if c.CheckRedirect != nil {
		if err := c.CheckRedirect(from, to, hops); err != nil {
			var se *schemes.Error
			if !errors.As(err, &se) {
				err = &schemes.Error{Scheme: from.Generic().Scheme, Phase: "redirect", Kind: schemes.KindSafety,
					URL: from.Redacted(), Part: "location", Msg: "redirect to " + to.Redacted() + " refused", Err: err}
			}
			return err
		}
	}
	return nil
}

// requireTLS applies RequireTLS to s, the scheme of loc, before its
// handler is asked anything: a scheme that can protect its connections
// (Caps TLS) is trusted to, through Request.RequireTLS; one whose
// connections are always encrypted and its servers authenticated without
// TLS (Encrypted: sftp over SSH) has no clear text to refuse, as curl's
// --ssl-reqd leaves it alone; one that opens no connection (Local) has
// nothing to protect; any other would talk in clear text, and is refused
// as KindSafety, naming the schemes that can.
func (c *Client) requireTLS(s schemes.Scheme, loc schemes.Locator) error {
	if !c.RequireTLS || s.Caps.Has(schemes.TLS) || s.Caps.Has(schemes.Encrypted) || s.Caps.Has(schemes.Local) {
		return nil
	}
	can := Protocols{}
	r := c.registry()
	for _, n := range r.Names() {
		if t, _ := r.Lookup(n); t.Caps.Has(schemes.TLS) || t.Caps.Has(schemes.Encrypted) {
			can[n] = true
		}
	}
	sch := loc.Generic().Scheme
	return &schemes.Error{Scheme: sch, Phase: "policy", Kind: schemes.KindSafety, URL: loc.Redacted(), Part: "scheme",
		Setting: SettingRequireTLS, Msg: fmt.Sprintf("TLS is required and %s: URLs cannot use it (schemes that can: %s)", sch, orNone(can))}
}

func orNone(p Protocols) string {
	if s := p.String(); s != "" {
		return s
	}
	return "none"
}

// origin is what a credential is bound to: scheme, host and port.
type origin struct {
	scheme, host string
	port         int
}

func originOf(loc schemes.Locator) origin {
	g := loc.Generic()
	return origin{g.Scheme, strings.ToLower(g.Host), g.EffectivePort()}
}

// credentialsFor is the Credentials a handler gets for loc within ch: the
// user's (-u, then netrc: userCredentials) only at the origin of the URL
// the caller named, or everywhere with LocationTrusted; and at that same
// origin, the login the caller's URL itself carried, so that a redirect
// within one server keeps it as curl does. Every password handed out is
// remembered, so that neither an error nor the trace can show it.
func (c *Client) credentialsFor(ch *chain, loc schemes.Locator) schemes.Credentials {
	same := originOf(loc) == originOf(ch.first)
	fg := ch.first.Generic()
	hasURLUser := fg.User != nil
	urlUser, urlPass := deref(fg.User), deref(fg.Password)
	user := c.userCredentials()
	if !same && !c.LocationTrusted {
		user = nil
	}
	if user == nil && !(same && hasURLUser) {
		return nil
	}
	return func(scheme, host string, port int) (string, string, bool) {
		if same && hasURLUser && loc != ch.first {
			ch.secret(urlPass)
			return urlUser, urlPass, true
		}
		if user == nil {
			return "", "", false
		}
		u, p, ok := user(scheme, host, port)
		if ok {
			ch.secret(p)
			c.trace().Secret(p)
		}
		return u, p, ok
	}
}

// userCredentials is the user's own supplier of logins: Credentials (-u)
// first, then Netrc, as curl ranks them; a handler reads the login in the
// URL itself before asking either. nil when there is neither.
func (c *Client) userCredentials() schemes.Credentials {
	switch {
	case c.Netrc == nil:
		return c.Credentials
	case c.Credentials == nil:
		return c.Netrc.Credentials()
	}
	netrc := c.Netrc.Credentials()
	return func(scheme, host string, port int) (string, string, bool) {
		if u, p, ok := c.Credentials(scheme, host, port); ok {
			return u, p, ok
		}
		return netrc(scheme, host, port)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
