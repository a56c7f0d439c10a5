package ftp

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxRetryAfter is the longest wait a 421 reply can ask for: a longer one
// is cut to it, as http does with Retry-After, so that --retry never holds
// a script up for longer than a person would wait.
const maxRetryAfter = 10 * time.Minute

// waitPhrase finds a wait a server states in words: "try again in 30
// seconds", "retry after 2 minutes", "please wait 90 sec". A number must
// follow a word that asks for a later try, so the figures of "421 Idle
// timeout (600 seconds)" (proftpd) or "Too many connections (8) from this
// IP" (pure-ftpd) are no wait. vsftpd, proftpd and pure-ftpd state none in
// their default texts; some servers and proxies do.
var waitPhrase = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:try(?:\s+again)?|retry|wait|reconnect|come\s+back)\b\D{0,20}?` +
		`\b(\d+)\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|h)\b`)
})

// retryAfter is the wait a 421 reply's text asks for, at most
// maxRetryAfter; 0 when it states none.
func retryAfter(text string) time.Duration {
	m := waitPhrase().FindStringSubmatch(text)
	if m == nil {
		return 0
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return maxRetryAfter
	}
	unit := time.Second
	switch u := strings.ToLower(m[2]); {
	case strings.HasPrefix(u, "h"):
		unit = time.Hour
	case strings.HasPrefix(u, "m"):
		unit = time.Minute
	}
	if n > int64(maxRetryAfter/unit) {
		return maxRetryAfter
	}
	return time.Duration(n) * unit
}
