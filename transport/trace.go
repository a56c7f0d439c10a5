package transport

import (
	"encoding/base64"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// DefaultMaxLine is the length beyond which Trace truncates a line.
const DefaultMaxLine = 1024

// Trace writes the protocol exchange to a writer, curl -v style: lines sent
// as "> line", received as "< line", notes as "* note". It is safe for
// concurrent use; each line is written with one Write.
//
// It never prints a secret. Every string given to Secret (and its
// URL-escaped forms) is replaced by "****" wherever it appears, and,
// independently, lines that carry credentials by protocol are redacted by
// their shape: FTP/POP3 "PASS", FTP "ACCT", NNTP "AUTHINFO PASS", SASL
// exchanges (SMTP/POP3 "AUTH", NNTP "AUTHINFO SASL") including their
// continuation lines, HTTP Authorization and Proxy-Authorization headers,
// and passwords in URLs ("//user:****@host"). Control characters and
// invalid UTF-8 are shown escaped (\r, \x00) and lines longer than MaxLine
// bytes are cut with a marker.
//
// The SASL tracking assumes one exchange at a time: connections
// authenticating concurrently should each have their own Trace (on the same
// writer), or rely on Secret.
type Trace struct {
	// MaxLine is the longest line shown, in bytes (0: DefaultMaxLine).
	MaxLine int

	mu      sync.Mutex
	w       io.Writer
	secrets []string // longest first, so a secret's substrings cannot split it
	sasl    bool     // inside a SASL exchange: client lines are credentials
}

var _ schemes.Trace = (*Trace)(nil)

// NewTrace returns a Trace writing to w.
func NewTrace(w io.Writer) *Trace { return &Trace{w: w} }

// Sent records a line sent to the server.
func (t *Trace) Sent(line string) { t.emit("> ", line, true) }

// Received records a line received from the server.
func (t *Trace) Received(line string) { t.emit("< ", line, false) }

// Info records a note from the client.
func (t *Trace) Info(msg string) { t.emit("* ", msg, false) }

// Secret registers s to be replaced by "****" in everything traced from
// now on. Empty strings are ignored.
func (t *Trace) Secret(s string) {
	if s == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	// The escaped forms catch the secret inside URLs; the base64 form is
	// what SASL LOGIN sends.
	for _, v := range []string{s, url.PathEscape(s), url.QueryEscape(s), schemes.Escape(s, ":@/?;"),
		base64.StdEncoding.EncodeToString([]byte(s))} {
		if v != "" && !slices.Contains(t.secrets, v) {
			t.secrets = append(t.secrets, v)
		}
	}
	slices.SortStableFunc(t.secrets, func(a, b string) int { return len(b) - len(a) })
}

func (t *Trace) emit(prefix, line string, sent bool) {
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	t.mu.Lock()
	defer t.mu.Unlock()
	if sent {
		line = t.redactSentLocked(line)
	} else if prefix == "< " {
		t.receivedLocked(line)
	}
	line = redactHeaders(line)
	line = redactURLs(line)
	for _, s := range t.secrets {
		line = strings.ReplaceAll(line, s, schemes.Redacted)
	}
	max := t.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	io.WriteString(t.w, prefix+escapeLine(line, max)+"\n")
}
