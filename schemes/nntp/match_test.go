package nntp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestArticleRefMatches: a 22x reply matches the article asked for by its
// number, or by its message-id (any number, 0 included), the domain of
// the id compared without regard to case; anything else, and a reply
// without the number and id, matches nothing.
func TestArticleRefMatches(t *testing.T) {
	num := func(n int64) articleRef { return articleRef{number: &n} }
	id := func(s string) articleRef { return articleRef{messageID: s} }
	for _, tc := range []struct {
		name string
		ref  articleRef
		text string
		want bool
	}{
		{"number", num(2), "2 <b2@x> article", true},
		{"another number", num(2), "3 <b2@x> article", false},
		{"number without id", num(2), "2", false},
		{"number 0 for a number", num(2), "0 <b2@x>", false},
		{"id, number 0", id("b2@x"), "0 <b2@x> article", true},
		{"id, a number", id("b2@x"), "17 <b2@x>", true},
		{"id alone on the line", id("b2@x"), "0 <b2@x>", true},
		{"another id", id("b2@x"), "0 <injected@x> article", false},
		{"domain in another case", id("b2@example.org"), "0 <b2@Example.ORG>", true},
		{"local part in another case", id("b2@x"), "0 <B2@x>", false},
		{"id without brackets", id("b2@x"), "0 b2@x", false},
		{"no number", id("b2@x"), "<b2@x>", false},
		{"negative number", id("b2@x"), "-1 <b2@x>", false},
		{"empty", id("b2@x"), "", false},
		{"only text", id("b2@x"), "article follows", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.ref.matches(reply{Code: codeArticle, Text: tc.text}); got != tc.want {
				t.Errorf("%s matches %q = %v, want %v", tc.ref, tc.text, got, tc.want)
			}
		})
	}
}

// articleReply is a server's reply to word (ARTICLE, HEAD, BODY) for the
// article id, and articleText what the client returns of it.
func articleReply(word, id string) string {
	code := map[string]int{"ARTICLE": codeArticle, "HEAD": codeHead, "BODY": codeBody}[word]
	return fmt.Sprintf("%d 0 <%s> follows\r\n%s.\r\n", code, id, strings.ReplaceAll(articleText(word, id), "\n", "\r\n"))
}

func articleText(word, id string) string {
	head, body := "Message-ID: <"+id+">\nSubject: "+id+"\n", "body of "+id+"\n"
	return map[string]string{"ARTICLE": head + "\n" + body, "HEAD": head, "BODY": body}[word]
}

// injector is a server that answers each article command with its
// article and, after the reply for a1@x, sends one more nobody asked for
// (injected@x), in the same write.
func injector(t *testing.T) *fakeServer {
	return newFake(t, func(_ *fakeConn, cmd string) string {
		if cmd == "CAPABILITIES" {
			return capsINN
		}
		word, arg, _ := strings.Cut(cmd, " ")
		id := strings.TrimSuffix(strings.TrimPrefix(arg, "<"), ">")
		if articleText(word, id) == "" {
			return ""
		}
		out := articleReply(word, id)
		if id == "a1@x" {
			out += articleReply(word, "injected@x")
		}
		return out
	})
}

// fetchIDs fetches news:<id> for each of ids in order through pool, each
// request naming the ones after it when hinted (as urlget does with its
// URLs and a URL list), and returns each body, or "error: " and the
// error's kind and text.
func fetchIDs(t *testing.T, h *Handler, pool *transport.Pool, ids []string, hinted bool) []string {
	t.Helper()
	var locs []schemes.Locator
	for _, id := range ids {
		locs = append(locs, locate(t, "news:"+id))
	}
	var got []string
	for i, loc := range locs {
		ctx := context.Background()
		if hinted {
			ctx = schemes.WithNext(ctx, locs[i+1:])
		}
		resp, err := h.Fetch(ctx, &schemes.Request{URL: loc, Dialer: fakeDialer{}, Conns: pool, Trace: &recTrace{}})
		if err == nil {
			var b []byte
			b, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				got = append(got, string(b))
				continue
			}
		}
		var se *schemes.Error
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v is not a *schemes.Error", loc, err)
		}
		got = append(got, fmt.Sprintf("error: %v exit %d: %s", se.Kind, se.Kind.ExitCode(), se.Msg))
	}
	return got
}

// TestUnsolicitedArticle: a server that sends one article nobody asked for
// after a reply never gets it written under another article's name. Each
// request alone or not pipelined, the pool finds the session out of step
// when it is kept and closes it: every article comes whole, the next on a
// new connection. Pipelined, the article whose command was sent ahead on
// that connection reads the injected reply, finds it names another
// article and fails (exit 6), the connection closed with the commands
// still waiting on it; the article after it comes on a new connection.
// ARTICLE, HEAD and BODY alike.
func TestUnsolicitedArticle(t *testing.T) {
	ids := []string{"a1@x", "b2@x", "c3@x"}
	for _, part := range []struct {
		word string
		part Part
	}{{"ARTICLE", PartArticle}, {"HEAD", PartHead}, {"BODY", PartBody}} {
		for _, mode := range []struct {
			name   string
			window int
			hinted bool
			// failed is the article that fails ("" none), conns the
			// connections the server sees.
			failed string
			conns  int
		}{
			{"one request at a time", 0, false, "", 2},
			{"URL list, not pipelined", 1, true, "", 2},
			{"URL list, pipelined", 0, true, "b2@x", 2},
		} {
			t.Run(part.word+"/"+mode.name, func(t *testing.T) {
				f := injector(t)
				h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port()), Part: part.part, Window: mode.window}
				pool := &transport.Pool{}
				defer pool.CloseIdle()
				got := fetchIDs(t, h, pool, ids, mode.hinted)
				for i, id := range ids {
					if id != mode.failed {
						if want := articleText(part.word, id); got[i] != want {
							t.Errorf("%s: got %q, want its own article %q", id, got[i], want)
						}
						continue
					}
					if !strings.HasPrefix(got[i], "error: protocol exit 6: ") || !strings.Contains(got[i], "<"+id+">") ||
						!strings.Contains(got[i], "<injected@x>") {
						t.Errorf("%s: got %q, want a protocol error naming <%s> and <injected@x>", id, got[i], id)
					}
				}
				if n := f.connCount(); n != mode.conns {
					t.Errorf("%d connections, want %d: the session out of step is never used again", n, mode.conns)
				}
			})
		}
	}
}

// TestReplyForAnotherArticle: a reply whose number or message-id is not
// the one asked for is an error naming both (exit 6, retryable), the
// connection is closed, and the next request gets its article on a new
// one — for an article by message-id, by number, and for the HEAD of each
// article of a group overview without OVER.
func TestReplyForAnotherArticle(t *testing.T) {
	capsNoOver := "101 caps\r\nVERSION 2\r\nREADER\r\n.\r\n"
	f := newFake(t, func(_ *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return capsNoOver
		case "GROUP g":
			return "211 2 1 2 g\r\n"
		case "ARTICLE <b2@x>":
			return articleReply("ARTICLE", "zz@x")
		case "ARTICLE <c3@x>":
			return articleReply("ARTICLE", "c3@x")
		case "ARTICLE 2":
			return "220 1 <a1@x>\r\nSubject: 1\r\n\r\none\r\n.\r\n"
		case "XOVER 1-2":
			return "500 what?\r\n"
		case "HEAD 1":
			return "221 2 <b2@x>\r\nSubject: 2\r\n.\r\n"
		}
		return ""
	})
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	for _, tc := range []struct {
		url, want string
	}{
		{"news:b2@x", `asked for article <b2@x>, the server answered "220 0 <zz@x> follows"`},
		{fmt.Sprintf("nntp://127.0.0.1:%d/g/2", f.port()), `asked for article 2, the server answered "220 1 <a1@x>"`},
		{"news:g", `asked for article 1, the server answered "221 2 <b2@x>"`},
	} {
		t.Run(tc.url, func(t *testing.T) {
			closeIdle(h) // each case on a connection of its own
			before := f.connCount()
			tr := &recTrace{}
			_, _, err := fetchAll(t, h, tc.url, tr, nil)
			var se *schemes.Error
			if !errors.As(err, &se) || se.Kind != schemes.KindProtocol || !se.Retryable || se.Code/10 != 22 ||
				!strings.Contains(se.Msg, tc.want) {
				t.Fatalf("err = %#v, want a retryable protocol error with its code: %s", err, tc.want)
			}
			if !strings.Contains(tr.String(), "closing the connection") {
				t.Errorf("the trace does not say the connection is closed:\n%s", tr)
			}
			b, _, err := fetchAll(t, h, "news:c3@x", nil, nil)
			if err != nil || string(b) != articleText("ARTICLE", "c3@x") {
				t.Fatalf("the next article: %q, %v", b, err)
			}
			if n := f.connCount() - before; n != 2 {
				t.Errorf("%d connections for the two requests, want 2: the one out of step is not reused", n)
			}
		})
	}
}
