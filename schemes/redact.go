package schemes

import "strings"

// Redacted is what replaces every password and secret in urlget's output.
const Redacted = "****"

// RedactString hides the password of a URL given as text, whether or not it
// parses: in "//user:password@host" the password becomes "****". It is safe
// on any input and is used for error messages about URLs that failed to parse.
func RedactString(raw string) string {
	// Only "scheme://" or a leading "//" starts an authority; an opaque
	// part such as "news:0//:@0" holds no password.
	i := 0
	if !strings.HasPrefix(raw, "//") {
		i = strings.Index(raw, "://") + 1
		if i <= 0 {
			return raw
		}
	}
	rest := raw[i+2:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	auth := rest[:end]
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return raw
	}
	colon := strings.IndexByte(auth[:at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:i+2] + auth[:colon+1] + Redacted + rest[at:]
}
