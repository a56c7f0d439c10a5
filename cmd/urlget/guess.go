package main

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// guessScheme returns raw with a scheme guessed from its host name when
// raw has none, as curl does for "example.org/file": the scheme forHost
// names (the declarations' host prefixes, schemes.Name.HostPrefixes:
// curl's "ftp." → ftp and any other host → http, with the schemes of RFC
// 1738 that curl lacks, "gopher." → gopher and "news." or "nntp." →
// nntp). ok is false when raw has a scheme already: a known one, or any
// followed by "//" (which fails later as unsupported, rather than
// becoming a host), or when no scheme claims the host. The retrieval
// command guesses; `urlget parse`, canon and same do not, since they
// report the URL as written.
func guessScheme(raw string, known func(scheme string) bool, forHost func(host string) string) (guessed, scheme string, ok bool) {
	if s, rest, found := strings.Cut(raw, ":"); found && isSchemeName(s) &&
		(known(strings.ToLower(s)) || strings.HasPrefix(rest, "//")) {
		return raw, "", false
	}
	if raw == "" || strings.HasPrefix(raw, "/") || strings.HasPrefix(strings.ToUpper(raw), "<URL:") {
		return raw, "", false // a path, or the RFC 1738 wrapper: not a host
	}
	host := raw
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if scheme = forHost(strings.ToLower(host)); scheme == "" {
		return raw, "", false
	}
	return scheme + "://" + raw, scheme, true
}

// isSchemeName reports whether s has the syntax of a scheme name (RFC
// 1738 §2.1: letters, digits, "+", "-", "."; RFC 3986 wants a letter
// first).
func isSchemeName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && (c < '0' || c > '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// guessSchemes gives each URL written without a scheme the one its host
// name suggests (guessScheme), and says so under -v.
func (o *options) guessSchemes(c *fetch.Client) {
	guess := schemeGuesser(c)
	for i, raw := range o.urls {
		o.urls[i] = guess(raw)
	}
}

// schemeGuesser returns guessScheme for c's schemes, which says under -v
// what it guessed: raw itself when it has a scheme or none can be told.
func schemeGuesser(c *fetch.Client) func(raw string) string {
	names := map[string]bool{}
	for _, n := range c.Registry.Names() {
		names[n] = true
	}
	known := func(s string) bool { return names[s] }
	return func(raw string) string {
		guessed, scheme, ok := guessScheme(raw, known, c.Registry.SchemeForHost)
		if !ok {
			return raw
		}
		if c.Trace != nil {
			shown := schemes.RedactString(guessed)
			if loc, err := c.Parse(guessed); err == nil {
				shown = loc.Redacted()
			}
			c.Trace.Info(fmt.Sprintf("no scheme in the URL: guessed %s from the host name (%s)", scheme, escapeControls(shown)))
		}
		return guessed
	}
}
