package hostile

import (
	"io"
	"slices"
	"strings"
	"sync/atomic"
)

// NNTPInjector serves a news server (RFC 3977) that holds the articles
// named by ids and, once, right after its reply for the first of them,
// sends one more article nobody asked for, <injected@x>, in the same
// write and with the reply code of the command it follows (220 for
// ARTICLE, 221 for HEAD, 222 for BODY): a client that takes replies in
// order without looking at their message-ids files every later article
// under the name of the one before. ARTICLE, HEAD, BODY and STAT by
// message-id; 430 for any other id. Commands sent ahead (RFC 3977 §3.5)
// are answered in order. Articles are InjectedArticle(id).
func NNTPInjector(ids ...string) func(*Conn) {
	var injected atomic.Bool
	return func(c *Conn) {
		nntpServe(c, "", func(verb, arg string) (bool, error) {
			code := map[string]string{"ARTICLE": "220", "HEAD": "221", "BODY": "222", "STAT": "223"}[verb]
			if code == "" {
				return false, nil
			}
			id := strings.TrimSuffix(strings.TrimPrefix(arg, "<"), ">")
			out := "430 no such article\r\n"
			if slices.Contains(ids, id) {
				out = articleReply(verb, code, id)
				if id == ids[0] && !injected.Swap(true) {
					out += articleReply(verb, code, "injected@x")
				}
			}
			_, err := io.WriteString(c, out) // one write: the injected article comes with the reply
			return true, err
		})
	}
}

// nntpServe serves one news reader session (RFC 3977): the greeting,
// CAPABILITIES (VERSION 2, READER and the lines of caps), MODE READER and
// QUIT; every other command goes to answer, which writes its reply and
// says whether it took the command (500 otherwise). It returns when the
// client leaves or a write fails.
func nntpServe(c *Conn, caps string, answer func(verb, arg string) (bool, error)) {
	reply := func(s string) error {
		_, err := io.WriteString(c, s+"\r\n")
		return err
	}
	if reply("200 hostile news server") != nil {
		return
	}
	lr := newLineReader(c)
	for {
		line, err := lr.next()
		if err != nil {
			return
		}
		verb, arg := command(line)
		switch verb {
		case "CAPABILITIES":
			err = reply("101 Capability list:\r\nVERSION 2\r\nREADER\r\n" + caps + ".")
		case "MODE":
			err = reply("200 reader")
		case "QUIT":
			reply("205 bye")
			return
		default:
			var took bool
			if took, err = answer(verb, arg); !took && err == nil {
				err = reply("500 unknown command")
			}
		}
		if err != nil {
			return
		}
	}
}

// InjectedArticle is the article id as NNTPInjector stores it, with LF
// line ends: its headers, a blank line and its body.
func InjectedArticle(id string) (head, body string) {
	return "Message-ID: <" + id + ">\nSubject: article " + id + "\n", "This is the body of " + id + ".\n"
}

// articleReply is the reply to verb for id: the status line "code 0
// <id>" and, but for STAT, the part asked for as a dot-terminated block
// with CRLF line ends.
func articleReply(verb, code, id string) string {
	head, body := InjectedArticle(id)
	text := map[string]string{"ARTICLE": head + "\n" + body, "HEAD": head, "BODY": body}[verb]
	out := code + " 0 <" + id + "> article\r\n"
	if verb == "STAT" {
		return out
	}
	return out + strings.ReplaceAll(text, "\n", "\r\n") + ".\r\n"
}
