package gateway

import (
	"strings"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// maxLogins bounds the passwords a gateway remembers.
const maxLogins = 64

// logins are the passwords people typed in URLs, kept in this process's
// memory only, so that no page, link, address bar or browser history
// holds one: the gateway sends the browser to the URL without its
// password (303), writes every link without it, and puts it back, for
// the same scheme, host, port and user, when it retrieves. Anyone who
// can reach the gateway can use a login typed into it, as with a
// login given on its command line (-u, --netrc).
type logins struct {
	mu sync.Mutex
	m  map[loginKey]string
}

type loginKey struct {
	scheme, host, user string
	port               int
}

func keyOf(g *schemes.URL) loginKey {
	return loginKey{g.Scheme, strings.ToLower(g.Host), *g.User, g.EffectivePort()}
}

// remember keeps the password of g, which has one.
func (l *logins) remember(g *schemes.URL) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[loginKey]string{}
	}
	k := keyOf(g)
	if _, ok := l.m[k]; !ok && len(l.m) >= maxLogins {
		clear(l.m) // rather than grow: a login forgotten is typed again
	}
	l.m[k] = *g.Password
}

// recall returns the password remembered for g's login.
func (l *logins) recall(g *schemes.URL) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.m[keyOf(g)]
	return p, ok
}

// withPassword returns raw with its authority's password replaced by
// pass (nil: removed), or "" when the URL cannot be rewritten so: the
// authority is rebuilt from the URL's parts and must be what the URL
// starts with, so that nothing of the scheme's own syntax is touched.
func withPassword(loc schemes.Locator, pass *string) string {
	g := loc.Generic()
	if !g.Authority || g.User == nil {
		return ""
	}
	raw := loc.String()
	head := g.Scheme + ":" + g.AuthorityString(false)
	rest, ok := strings.CutPrefix(raw, head)
	if !ok {
		return ""
	}
	n := *g
	n.Password = pass
	return g.Scheme + ":" + n.AuthorityString(false) + rest
}

// stripped is loc's URL without its password, for links and addresses.
// It has no password, or is "" when the password cannot be taken out.
func stripped(loc schemes.Locator) string {
	if loc.Generic().Password == nil {
		return loc.String()
	}
	return withPassword(loc, nil)
}

// withLogin returns loc with the password remembered for its user put
// back, when its URL names a user and no password.
func (s *Server) withLogin(loc schemes.Locator) schemes.Locator {
	g := loc.Generic()
	if !g.Authority || g.User == nil || g.Password != nil {
		return loc
	}
	p, ok := s.logins.recall(g)
	if !ok {
		return loc
	}
	if raw := withPassword(loc, &p); raw != "" {
		if n, err := s.c.Parse(raw); err == nil {
			return n
		}
	}
	return loc
}
