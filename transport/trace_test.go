package transport

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/schemes"
)

func TestTraceRedaction(t *testing.T) {
	type step struct {
		kind string // ">", "<", "*", "secret"
		line string
	}
	tests := []struct {
		name  string
		steps []step
		want  string
	}{
		{"ftp PASS", []step{{">", "USER anonymous"}, {">", "PASS guest@example.com\r\n"}},
			"> USER anonymous\n> PASS ****\n"},
		{"ftp pass lower case, spaces", []step{{">", "pass two words"}}, "> pass ****\n"},
		{"ftp ACCT", []step{{">", "ACCT acct-secret"}}, "> ACCT ****\n"},
		{"bare PASS", []step{{">", "PASS"}}, "> PASS\n"},
		{"nntp AUTHINFO PASS", []step{{">", "AUTHINFO USER fred"}, {">", "AUTHINFO PASS s3cret"}},
			"> AUTHINFO USER fred\n> AUTHINFO PASS ****\n"},
		{"smtp AUTH PLAIN initial response", []step{{">", "AUTH PLAIN AGZyZWQAczNjcmV0"}, {"<", "235 2.7.0 ok"}, {">", "MAIL FROM:<a@b>"}},
			"> AUTH PLAIN ****\n< 235 2.7.0 ok\n> MAIL FROM:<a@b>\n"},
		{"smtp AUTH LOGIN follow-ups", []step{
			{">", "AUTH LOGIN"}, {"<", "334 VXNlcm5hbWU6"}, {">", "ZnJlZA=="}, {"<", "334 UGFzc3dvcmQ6"},
			{">", "czNjcmV0"}, {"<", "235 ok"}, {">", "QUIT"}},
			"> AUTH LOGIN\n< 334 VXNlcm5hbWU6\n> ****\n< 334 UGFzc3dvcmQ6\n> ****\n< 235 ok\n> QUIT\n"},
		{"ftp AUTH TLS is not secret", []step{{">", "AUTH TLS"}, {"<", "234 go"}, {">", "USER x"}},
			"> AUTH TLS\n< 234 go\n> USER x\n"},
		{"nntp AUTHINFO SASL", []step{{">", "AUTHINFO SASL PLAIN AGZyZWQAczNjcmV0"}, {"<", "281 ok"}},
			"> AUTHINFO SASL PLAIN ****\n< 281 ok\n"},
		{"http Authorization", []step{{">", "Authorization: Basic Zm9vOmJhcg=="}},
			"> Authorization: Basic ****\n"},
		{"http Proxy-Authorization", []step{{">", "proxy-authorization: Bearer tok.tok.tok"}},
			"> proxy-authorization: Bearer ****\n"},
		{"http Authorization no scheme", []step{{">", "Authorization: opaque"}}, "> Authorization: ****\n"},
		{"url in line", []step{{"*", "redirect to ftp://fred:pw1@host/x and http://u:p2@h:8/"}},
			"* redirect to ftp://fred:****@host/x and http://u:****@h:8/\n"},
		{"url without password", []step{{"<", "Location: http://fred@host/"}}, "< Location: http://fred@host/\n"},
		{"registered secret anywhere", []step{{"secret", "hunter2"}, {"<", "230 welcome hunter2!"}, {"*", "xhunter2x"}},
			"< 230 welcome ****!\n* x****x\n"},
		{"registered secret escaped in url", []step{{"secret", "p@ss word"}, {"*", "trying ftp://h/p%40ss%20word"}},
			"* trying ftp://h/****\n"},
		{"secret in received line", []step{{"secret", "tok"}, {"<", "token tok"}}, "< ****en ****\n"},
		{"control chars escaped", []step{{"<", "a\rb\x00c\x1bd\te"}}, "< a\\rb\\x00c\\x1bd\\te\n"},
		{"invalid utf8 and bidi", []step{{"<", "x\xffy\u202ez"}}, "< x\\xffy\\u202ez\n"},
		{"unicode kept", []step{{"<", "café"}}, "< café\n"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		tr := NewTrace(&buf)
		for _, s := range tt.steps {
			switch s.kind {
			case ">":
				tr.Sent(s.line)
			case "<":
				tr.Received(s.line)
			case "*":
				tr.Info(s.line)
			case "secret":
				tr.Secret(s.line)
			}
		}
		if got := buf.String(); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestTraceTruncates(t *testing.T) {
	var buf bytes.Buffer
	tr := NewTrace(&buf)
	tr.MaxLine = 10
	tr.Received(strings.Repeat("a", 25))
	if got, want := buf.String(), "< aaaaaaaaaa...[15 more bytes]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A secret straddling the cut is replaced before cutting.
	buf.Reset()
	tr.Secret("SECRETVALUE")
	tr.Received("12345SECRETVALUE")
	if got := buf.String(); strings.Contains(got, "SECRET") {
		t.Errorf("secret prefix leaked through truncation: %q", got)
	}
}

// TestTraceConcurrent checks that lines from many goroutines come out whole
// and that a secret registered concurrently never shows after registration.
func TestTraceConcurrent(t *testing.T) {
	var buf bytes.Buffer
	tr := NewTrace(&buf)
	tr.Secret("topsecret")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				tr.Sent(fmt.Sprintf("PASS topsecret-%d-%d", g, i))
				tr.Received(fmt.Sprintf("line %d %d topsecret", g, i))
				tr.Info("note")
				tr.Secret(fmt.Sprintf("other%d", g))
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 8*200*3 {
		t.Fatalf("got %d lines, want %d", len(lines), 8*200*3)
	}
	for _, l := range lines {
		if strings.Contains(l, "topsecret") {
			t.Fatalf("secret leaked: %q", l)
		}
		if !strings.HasPrefix(l, "> ") && !strings.HasPrefix(l, "< ") && !strings.HasPrefix(l, "* ") {
			t.Fatalf("interleaved line: %q", l)
		}
	}
}

// byteWriter appends one byte at a time, yielding between bytes, so that two
// writers that are not serialized by the Trace would interleave their lines.
type byteWriter struct {
	mu  sync.Mutex
	buf []byte
}

func (w *byteWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		w.mu.Lock()
		w.buf = append(w.buf, b)
		w.mu.Unlock()
		runtime.Gosched()
	}
	return len(p), nil
}

// TestTraceScopesConcurrent: two scopes written from two goroutines come
// out as whole lines, each scope's in its own order, the second scope's
// marked "[2] ".
func TestTraceScopesConcurrent(t *testing.T) {
	w := &byteWriter{}
	root := NewTrace(w)
	scopes := []schemes.Trace{root.Scope(), root.Scope()}
	const n = 300
	var wg sync.WaitGroup
	for i, s := range scopes {
		wg.Go(func() {
			for j := range n {
				s.Received(fmt.Sprintf("scope%d line %d %s", i+1, j, strings.Repeat("x", 40)))
			}
		})
	}
	wg.Wait()
	next := map[string]int{"": 0, "[2] ": 0}
	for l := range strings.Lines(string(w.buf)) {
		prefix := ""
		if strings.HasPrefix(l, "[2] ") {
			prefix = "[2] "
		}
		id := map[string]int{"": 1, "[2] ": 2}[prefix]
		want := fmt.Sprintf("%s< scope%d line %d %s\n", prefix, id, next[prefix], strings.Repeat("x", 40))
		if l != want {
			t.Fatalf("line %q, want %q: lines interleaved, reordered or misattributed", l, want)
		}
		next[prefix]++
	}
	if next[""] != n || next["[2] "] != n {
		t.Errorf("got %d and %d lines, want %d each", next[""], next["[2] "], n)
	}
}

func TestTraceScopePrefixes(t *testing.T) {
	var buf strings.Builder
	root := NewTrace(&buf)
	root.MaxLine = 10
	s1 := root.Scope()
	s2 := root.Scope()
	s3 := s2.(*Trace).Scope() // a scope of a scope is numbered by the root
	root.Info("root")
	s1.Info("one")
	s2.Info("two")
	s3.Sent("three")
	s3.Received(strings.Repeat("a", 25)) // scopes use the root's MaxLine
	want := "* root\n* one\n[2] * two\n[3] > three\n[3] < aaaaaaaaaa...[15 more bytes]\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// schemes.NewScope finds the Scoper.
	if s, ok := schemes.NewScope(root).(*Trace); !ok || s.id != 4 {
		t.Errorf("schemes.NewScope(root) = %#v, want the 4th scope", s)
	}
}

// TestTraceScopeSecrets: a secret registered in any scope, or the root, is
// redacted everywhere.
func TestTraceScopeSecrets(t *testing.T) {
	var buf strings.Builder
	root := NewTrace(&buf)
	s1, s2 := root.Scope(), root.Scope()
	s1.Secret("hunter2")
	root.Secret("rootpw")
	s2.Received("230 welcome hunter2 rootpw")
	root.Info("hunter2 in the root")
	s1.Sent("RETR rootpw")
	want := "[2] < 230 welcome **** ****\n* **** in the root\n> RETR ****\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTraceScopeSASL: one connection's SASL exchange redacts that
// connection's client lines only; another connection's replies neither end
// it nor are affected by it.
func TestTraceScopeSASL(t *testing.T) {
	var buf strings.Builder
	root := NewTrace(&buf)
	smtp, nntp := root.Scope(), root.Scope()
	smtp.Sent("AUTH LOGIN")
	smtp.Received("334 VXNlcm5hbWU6")
	nntp.Sent("GROUP comp.lang.go") // not a credential: another connection
	nntp.Received("211 5 1 5 comp.lang.go")
	root.Info("note")
	smtp.Sent("ZnJlZA==") // still in the SASL exchange: nntp's reply did not end it
	smtp.Received("235 ok")
	smtp.Sent("MAIL FROM:<a@b>")
	want := "> AUTH LOGIN\n< 334 VXNlcm5hbWU6\n[2] > GROUP comp.lang.go\n[2] < 211 5 1 5 comp.lang.go\n* note\n" +
		"> ****\n< 235 ok\n> MAIL FROM:<a@b>\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
