package transport

import (
	"encoding/base64"
	"fmt"
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
// Scope gives each protocol connection a Trace of its own, so that
// parallel connections never mix their lines or their SASL state: the
// first scope's lines look as above, later scopes' lines start with
// "[N] ". Every scope writes to the same writer and shares the secrets:
// one given to any scope is redacted everywhere.
type Trace struct {
	// MaxLine is the longest line shown, in bytes (0: DefaultMaxLine).
	// Scopes use their root's.
	MaxLine int

	root   *Trace // nil for a root
	id     int    // 0 for a root; 1, 2, ... for its scopes
	shared *traceShared
	sasl   bool // inside a SASL exchange: client lines are credentials (guarded by shared.mu)
}

// traceShared is what a root Trace and its scopes have in common.
type traceShared struct {
	mu      sync.Mutex
	w       io.Writer
	secrets []string // longest first, so a secret's substrings cannot split it
	scopes  int      // scopes handed out
}

var (
	_ schemes.Trace  = (*Trace)(nil)
	_ schemes.Scoper = (*Trace)(nil)
)

// NewTrace returns a Trace writing to w.
func NewTrace(w io.Writer) *Trace { return &Trace{shared: &traceShared{w: w}} }

// Scope returns a new scope for one protocol connection.
func (t *Trace) Scope() schemes.Trace {
	root := t
	if t.root != nil {
		root = t.root
	}
	t.shared.mu.Lock()
	defer t.shared.mu.Unlock()
	t.shared.scopes++
	return &Trace{root: root, id: t.shared.scopes, shared: t.shared}
}

// Sent records a line sent to the server.
func (t *Trace) Sent(line string) { t.emit("> ", line, true) }

// Received records a line received from the server.
func (t *Trace) Received(line string) { t.emit("< ", line, false) }

// Info records a note from the client.
func (t *Trace) Info(msg string) { t.emit("* ", msg, false) }

// Secret registers s to be replaced by "****" in everything traced from
// now on, in every scope. Empty strings are ignored.
func (t *Trace) Secret(s string) {
	if s == "" {
		return
	}
	sh := t.shared
	sh.mu.Lock()
	defer sh.mu.Unlock()
	// The escaped forms catch the secret inside URLs; the base64 form is
	// what SASL LOGIN sends.
	for _, v := range []string{s, url.PathEscape(s), url.QueryEscape(s), schemes.Escape(s, ":@/?;"),
		base64.StdEncoding.EncodeToString([]byte(s))} {
		if v != "" && !slices.Contains(sh.secrets, v) {
			sh.secrets = append(sh.secrets, v)
		}
	}
	slices.SortStableFunc(sh.secrets, func(a, b string) int { return len(b) - len(a) })
}

func (t *Trace) emit(prefix, line string, sent bool) {
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	sh := t.shared
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sent {
		line = t.redactSentLocked(line)
	} else if prefix == "< " {
		t.receivedLocked(line)
	}
	line = redactHeaders(line)
	line = redactURLs(line)
	for _, s := range sh.secrets {
		line = strings.ReplaceAll(line, s, schemes.Redacted)
	}
	root := t
	if t.root != nil {
		root = t.root
	}
	max := root.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	if t.id > 1 {
		prefix = fmt.Sprintf("[%d] %s", t.id, prefix)
	}
	io.WriteString(sh.w, prefix+schemes.Printable(line, max)+"\n")
}
