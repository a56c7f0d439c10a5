package schemestest

import (
	"fmt"
	"strings"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// ScopeTrace is a schemes.Trace with scopes that records each line with
// the number of the scope it was traced in (0: the root, then 1, 2, ...
// in the order schemes.NewScope handed them out), as "<scope> <prefix>
// <line>" ("1 > USER anonymous"). Handler tests use it to check that a
// connection's exchange, and the Dialer's notes about it, land in that
// connection's own scope.
type ScopeTrace struct {
	id  int
	log *scopeLog
}

type scopeLog struct {
	mu     sync.Mutex
	scopes int
	lines  []string
}

var _ schemes.Scoper = (*ScopeTrace)(nil)

// NewScopeTrace returns a root ScopeTrace.
func NewScopeTrace() *ScopeTrace { return &ScopeTrace{log: &scopeLog{}} }

// Scope returns the next scope.
func (t *ScopeTrace) Scope() schemes.Trace {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	t.log.scopes++
	return &ScopeTrace{id: t.log.scopes, log: t.log}
}

func (t *ScopeTrace) add(s string) {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	t.log.lines = append(t.log.lines, fmt.Sprintf("%d %s", t.id, s))
}

// Sent records "> line".
func (t *ScopeTrace) Sent(l string) { t.add("> " + l) }

// Received records "< line".
func (t *ScopeTrace) Received(l string) { t.add("< " + l) }

// Info records "* line".
func (t *ScopeTrace) Info(l string) { t.add("* " + l) }

// Secret does nothing: redaction is transport.Trace's business.
func (t *ScopeTrace) Secret(string) {}

// Lines returns every line recorded so far, in every scope.
func (t *ScopeTrace) Lines() []string {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	return append([]string(nil), t.log.lines...)
}

// String is Lines joined by newlines.
func (t *ScopeTrace) String() string { return strings.Join(t.Lines(), "\n") }

// ScopesOf returns the scope of every line that starts with prefix ("> GET ").
func (t *ScopeTrace) ScopesOf(prefix string) []int {
	var ids []int
	for _, l := range t.Lines() {
		var id int
		fmt.Sscanf(l, "%d", &id)
		if _, rest, _ := strings.Cut(l, " "); strings.HasPrefix(rest, prefix) {
			ids = append(ids, id)
		}
	}
	return ids
}
