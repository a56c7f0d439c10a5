package main

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// maxShownWord is how much of one word (a URL, mostly) a message shows:
// a URL of megabytes would otherwise bury the message, and is of no use
// to read. --json keeps every URL whole.
const maxShownWord = 200

// redactMessage formats err for people: passwords redacted, control
// characters escaped, over-long words shortened (forPeople).
func redactMessage(err error) string { return forPeople(redactedText(err)) }

// redactedText is err's text with passwords redacted, as --json reports
// it. Errors from this program carry redacted URLs already; anything else
// is passed through RedactString in case a URL with a password slipped
// into it.
func redactedText(err error) string {
	var se *schemes.Error
	if errors.As(err, &se) {
		return err.Error()
	}
	return schemes.RedactString(err.Error())
}

// forPeople makes text from anywhere (a server's reply, a name in a
// listing, a URL) safe to print on a terminal: control characters are
// escaped, so an ESC cannot drive the terminal and a CR or LF cannot fake
// a line, and every word longer than maxShownWord runes is cut there,
// marked "…" (keeping a final ":", which separates a URL from its message).
func forPeople(s string) string {
	s = escapeControls(s)
	if len(s) <= maxShownWord {
		return s
	}
	words := strings.Split(s, " ")
	for i, w := range words {
		if utf8.RuneCountInString(w) > maxShownWord {
			colon := ""
			if strings.HasSuffix(w, ":") {
				colon = ":"
			}
			words[i] = cutRunes(w, maxShownWord) + "…" + colon
		}
	}
	return strings.Join(words, " ")
}

// escapeControls shows s with control and unprintable characters escaped
// (schemes.Printable), for every message printed to a person.
func escapeControls(s string) string { return schemes.Printable(s, 0) }

// maxTimeExpired is the cause of a --max-time deadline, so that the
// failure it provokes (a timeout, a connection closed under a read) is
// reported as what it is.
type maxTimeExpired struct{ d time.Duration }

func (e *maxTimeExpired) Error() string { return "--max-time " + formatSeconds(e.d) + " expired" }

// withMaxTime bounds ctx by --max-time d (0: no bound).
func withMaxTime(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, d, &maxTimeExpired{d})
}

// explainMaxTime replaces err, when ctx's --max-time expired, by a timeout
// that says so: whatever broke when the deadline passed (a read, a dial)
// broke because of it.
func explainMaxTime(ctx context.Context, err error) error {
	var mt *maxTimeExpired
	if err == nil || ctx.Err() == nil || !errors.As(context.Cause(ctx), &mt) {
		return err
	}
	e := &schemes.Error{Kind: schemes.KindTimeout, Err: mt}
	var se *schemes.Error
	if errors.As(err, &se) {
		e.Scheme, e.Phase, e.URL = se.Scheme, se.Phase, se.URL
	}
	if pk := (*fetch.PartialKept)(nil); errors.As(err, &pk) {
		e.Err = &fetch.PartialKept{Path: pk.Path, Err: mt} // still say how to continue
	}
	return e
}
