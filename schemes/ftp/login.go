package ftp

import (
	"context"
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// AnonymousUser is the user name of anonymous FTP (RFC 1738 §3.2.1).
const AnonymousUser = "anonymous"

// login is who to log in as. Password is nil when none is known yet: the
// server may not ask for one, and if it does the user is prompted.
type login struct {
	User      string
	Password  *string
	Anonymous bool
	// OrEmpty says the caller's Credentials knew the user but no password
	// (a netrc login alone, -u USER): with nobody at a terminal to ask,
	// the password is sent empty rather than the login failed.
	OrEmpty bool
}

// credentials decides the login for loc: the URL's user and password
// (decoded; an absent password is not an empty one), else what the
// caller's Credentials know for the host (-u, netrc: the fetch Client's
// policy decides which hosts get them), else anonymous with the end
// user's mail address as password, as RFC 1738 §3.2.1 asks.
func (h *Handler) credentials(loc *URL, req *schemes.Request) login {
	g := loc.u
	if g.User != nil {
		return login{User: *g.User, Password: g.Password}
	}
	if req.Credentials != nil {
		if u, p, ok := req.Credentials(g.Scheme, g.Host, g.EffectivePort()); ok && u != "" {
			if p == "" { // none known (schemes.Credentials): asked for if the server wants one
				return login{User: u, OrEmpty: true}
			}
			return login{User: u, Password: &p}
		}
	}
	pass := h.anonPassword()
	return login{User: AnonymousUser, Password: &pass, Anonymous: true}
}

// anonPassword is the mail address sent as the anonymous password:
// --ftp-anon-password, else $URLGET_EMAIL, else $EMAIL, else user@host.
func (h *Handler) anonPassword() string {
	if h.AnonPassword != "" {
		return h.AnonPassword
	}
	return schemes.DefaultMailAddress(nil)
}

// checkLine refuses, before any connection is made, every decoded URL
// part that would end or truncate a command line.
func checkLines(loc *URL, lg login) error {
	check := func(part, v string) error {
		return transport.CheckLine(loc.u.Scheme, part, v)
	}
	if err := check("user", lg.User); err != nil {
		return err
	}
	if lg.Password != nil {
		if err := check("password", *lg.Password); err != nil {
			return err
		}
	}
	for i, s := range loc.Cwd {
		if err := check(fmt.Sprintf("cwd segment %d", i+1), s); err != nil {
			return err
		}
	}
	return check("name", loc.Name)
}

// doLogin sends USER and, when the server asks (331), PASS. A user with no
// password is prompted for one at the terminal; with no terminal the error
// names the settings that supply it, in the caller's words.
func (c *ctrl) doLogin(ctx context.Context, loc *URL, req *schemes.Request, lg login, words schemes.Words) error {
	rp, err := c.cmd("USER " + lg.User)
	if err != nil {
		return ioError(loc, "login", err)
	}
	if rp.Code == 230 || rp.Code == 202 {
		return nil
	}
	if rp.Code != 331 && rp.Code != 332 {
		return c.replyError(loc, "login", "USER "+lg.User, rp)
	}
	if rp.Code == 332 {
		return c.replyError(loc, "login", "USER "+lg.User+" (the server wants an account, ACCT is not supported)", rp)
	}
	pass := ""
	if lg.Password != nil {
		pass = *lg.Password
	} else {
		p, perr := prompt(ctx, req, lg.User, loc.u.Host)
		if perr != nil && lg.OrEmpty {
			p, perr = "", nil
		}
		if perr != nil {
			return &schemes.Error{Scheme: loc.u.Scheme, Phase: "login", Kind: schemes.KindPermission,
				Part: "password", Msg: fmt.Sprintf("server wants a password for %s and there is no terminal to ask "+
					"(give it with %s %s:PASSWORD, %s or in the URL)", lg.User, words.Setting(schemes.SettingCredentials), lg.User,
					words.Setting(schemes.SettingNetrc)), Err: perr}
		}
		pass = p
	}
	if err := transport.CheckLine(loc.u.Scheme, "password", pass); err != nil {
		return err
	}
	c.tr.Secret(pass)
	c.secret = pass
	rp, err = c.cmd("PASS " + pass)
	if err != nil {
		return ioError(loc, "login", err)
	}
	if rp.Code == 230 || rp.Code == 202 {
		return nil
	}
	return c.replyError(loc, "login", "PASS "+schemes.Redacted, rp)
}

func prompt(ctx context.Context, req *schemes.Request, user, host string) (string, error) {
	if req.Prompt == nil {
		return "", fmt.Errorf("no terminal")
	}
	return req.Prompt(ctx, fmt.Sprintf("Password for %s@%s: ", user, host), true)
}

// parsePWD reads the directory out of a 257 reply: the text between the
// first quote and the quote that ends it, with doubled quotes standing for
// one (RFC 959 appendix II).
func parsePWD(text string) (string, bool) {
	i := strings.IndexByte(text, '"')
	if i < 0 {
		return "", false
	}
	var b strings.Builder
	s := text[i+1:]
	for j := 0; j < len(s); j++ {
		if s[j] == '"' {
			if j+1 < len(s) && s[j+1] == '"' {
				b.WriteByte('"')
				j++
				continue
			}
			return b.String(), true
		}
		b.WriteByte(s[j])
	}
	return "", false
}
