package main

import (
	"errors"
	"strings"
	"unicode/utf8"

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
		return err.Error() + flagHint(se.Setting)
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
