package transport

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
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
