package nntp

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// callerWords are a caller's own words for options and settings
// ("<nntp-server>"), which a handler built from the declaration's Values
// uses in its messages.
var callerWords = Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()

func checkKind(t *testing.T, err error, kind schemes.Kind, code int) *schemes.Error {
	t.Helper()
	var e *schemes.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *schemes.Error of kind %v", err, err, kind)
	}
	if e.Kind != kind || e.Code != code {
		t.Fatalf("err = %v: kind %v code %d, want kind %v code %d", err, e.Kind, e.Code, kind, code)
	}
	return e
}

func checkCommands(t *testing.T, f *fakeServer, want ...string) {
	t.Helper()
	if got := f.commands(); !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\n got %q\nwant %q", got, want)
	}
}

// articleReply is a dot-stuffed article as it travels: lines starting with
// "." doubled, a bare LF inside a line and a CR not before LF kept.
const articleWire = "Subject: dots\r\nFrom: a@b\r\n\r\n..\r\n...\r\n..leading dot\r\nbare\nlf\r\ncr\rinside\r\n.\r\n"
const articleBytes = "Subject: dots\nFrom: a@b\n\n.\n..\n.leading dot\nbare\nlf\ncr\rinside\n"

func TestArticleByMessageID(t *testing.T) {
	f := newINNFake(t, map[string]string{
		"ARTICLE <dots@x.test>": "220 0 <dots@x.test> article\r\n" + articleWire,
	})
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	b, resp, err := fetchAll(t, h, "news:dots@x.test", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != articleBytes {
		t.Errorf("body = %q, want %q", b, articleBytes)
	}
	if resp.Status != 220 || resp.Type != "message/rfc822" || resp.Name != "dots@x.test" {
		t.Errorf("resp = %+v", resp)
	}
	checkCommands(t, f, "CAPABILITIES", "ARTICLE <dots@x.test>")
}

func TestArticleByNumberAndParts(t *testing.T) {
	f := newINNFake(t, map[string]string{
		"GROUP local.test": "211 3 1 3 local.test\r\n",
		"ARTICLE 2":        "220 2 <b@x> article\r\nA: 1\r\n\r\nbody\r\n.\r\n",
		"HEAD 2":           "221 2 <b@x> head\r\nA: 1\r\n.\r\n",
		"BODY 2":           "222 2 <b@x> body\r\nbody\r\n.\r\n",
	})
	raw := fmt.Sprintf("nntp://127.0.0.1:%d/local.test/2", f.port())
	for _, tc := range []struct {
		part Part
		want string
	}{{PartArticle, "A: 1\n\nbody\n"}, {PartHead, "A: 1\n"}, {PartBody, "body\n"}} {
		h := &Handler{Part: tc.part}
		b, _, err := fetchAll(t, h, raw, nil, nil)
		closeIdle(h)
		if err != nil || string(b) != tc.want {
			t.Errorf("part %v: %q, %v; want %q", tc.part, b, err, tc.want)
		}
	}
	checkCommands(t, f, "CAPABILITIES", "GROUP local.test", "ARTICLE 2",
		"CAPABILITIES", "GROUP local.test", "HEAD 2",
		"CAPABILITIES", "GROUP local.test", "BODY 2")
}

func TestReplyErrors(t *testing.T) {
	f := newINNFake(t, map[string]string{
		"GROUP no.such":      "411 No such group\r\n",
		"GROUP local.test":   "211 3 1 3 local.test\r\n",
		"ARTICLE 9":          "423 No article with that number\r\n",
		"ARTICLE 8":          "299 what\r\n",
		"ARTICLE 7":          "22O broken\r\n",
		"ARTICLE <gone@x>":   "430 No such article\r\n",
		"ARTICLE <denied@x>": "502 Permission denied\r\n",
		"ARTICLE <busy@x>":   "400 Service temporarily unavailable\r\n",
	})
	base := fmt.Sprintf("nntp://127.0.0.1:%d/", f.port())
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	for _, tc := range []struct {
		raw  string
		kind schemes.Kind
		code int
	}{
		{base + "no.such/1", schemes.KindNotFound, 411},
		{base + "no.such", schemes.KindNotFound, 411},
		{base + "local.test/9", schemes.KindNotFound, 423},
		{"news:gone@x", schemes.KindNotFound, 430},
		{"news:denied@x", schemes.KindPermission, 502},
		{"news:busy@x", schemes.KindBusy, 400},
		{base + "local.test/8", schemes.KindProtocol, 299},
		{base + "local.test/7", schemes.KindProtocol, 0},
	} {
		_, _, err := fetchAll(t, h, tc.raw, nil, nil)
		e := checkKind(t, err, tc.kind, tc.code)
		if tc.kind == schemes.KindProtocol && tc.code != 0 && !strings.Contains(e.Msg, "299 what") {
			t.Errorf("%s: message %q lacks the reply text", tc.raw, e.Msg)
		}
	}
	if e := checkKind(t, func() error { _, _, err := fetchAll(t, h, base+"local.test/9", nil, nil); return err }(),
		schemes.KindNotFound, 423); e.Kind.ExitCode() != 3 {
		t.Errorf("exit code %d, want 3", e.Kind.ExitCode())
	}
}

func TestGreetingRefused(t *testing.T) {
	f := newFake(t, func(*fakeConn, string) string { return "" })
	f.setGreeting("502 You have no permission to talk\r\n")
	_, _, err := fetchAll(t, &Handler{}, fmt.Sprintf("nntp://127.0.0.1:%d/local.test", f.port()), nil, nil)
	checkKind(t, err, schemes.KindPermission, 502)
	f.setGreeting("400 too busy\r\n")
	_, _, err = fetchAll(t, &Handler{}, fmt.Sprintf("nntp://127.0.0.1:%d/local.test", f.port()), nil, nil)
	if e := checkKind(t, err, schemes.KindBusy, 400); !e.Retryable || e.Kind.ExitCode() != 5 {
		t.Errorf("400: retryable %v, exit %d; want retryable, exit 5", e.Retryable, e.Kind.ExitCode())
	}
}

// overviewServer serves a group of articles 1..3 without 2, with or
// without OVER, XOVER and CAPABILITIES.
func overviewServer(t *testing.T, caps string, over, xover bool) *fakeServer {
	lines := map[int]string{
		1: "1\tFirst\ta@b (A)\tSat, 21 Nov 2026 05:37:35 +0000 (UTC)\t<1@x>\t\t553\t6\tXref: h g:1",
		3: "3\tThird\tc@d\tSat, 21 Nov 2026 05:38:00 +0000\t<3@x>\t<1@x>\t100\t2",
	}
	return newFake(t, func(_ *fakeConn, cmd string) string {
		switch {
		case cmd == "CAPABILITIES":
			return caps
		case cmd == "MODE READER":
			return "200 reader\r\n"
		case cmd == "GROUP g.test":
			return "211 2 1 3 g.test\r\n"
		case cmd == "OVER 1-3" && over, cmd == "XOVER 1-3" && xover:
			return "224 overview\r\n" + lines[1] + "\r\n" + lines[3] + "\r\n.\r\n"
		case cmd == "HEAD 1":
			return "221 1 <1@x>\r\nSubject: First\r\nFrom: a@b\r\n (A)\r\nDate: Sat, 21 Nov 2026 05:37:35 +0000 (UTC)\r\nMessage-ID: <1@x>\r\nLines: 6\r\n.\r\n"
		case cmd == "HEAD 2":
			return "423 no such article\r\n"
		case cmd == "HEAD 3":
			return "221 3 <3@x>\r\nSubject: Third\r\nFrom: c@d\r\nDate: Sat, 21 Nov 2026 05:38:00 +0000\r\nMessage-ID: <3@x>\r\nBytes: 100\r\nLines: 2\r\n.\r\n"
		}
		return ""
	})
}

func TestOverviewFallbacks(t *testing.T) {
	capsNoOver := "101 caps\r\nVERSION 2\r\nREADER\r\n.\r\n"
	for _, tc := range []struct {
		name        string
		caps        string
		over, xover bool
		cmds        []string
		bytes1      string // the Extra of the first entry's wire size
	}{
		{"OVER", capsINN, true, false, []string{"CAPABILITIES", "GROUP g.test", "OVER 1-3"}, " bytes=553"},
		{"no OVER announced: XOVER", capsNoOver, false, true, []string{"CAPABILITIES", "GROUP g.test", "XOVER 1-3"}, " bytes=553"},
		{"no CAPABILITIES: MODE READER, OVER fails, XOVER", "", false, true,
			[]string{"CAPABILITIES", "MODE READER", "GROUP g.test", "OVER 1-3", "XOVER 1-3"}, " bytes=553"},
		{"neither: HEAD per article", capsNoOver, false, false,
			[]string{"CAPABILITIES", "GROUP g.test", "XOVER 1-3", "HEAD 1", "HEAD 2", "HEAD 3"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := overviewServer(t, tc.caps, tc.over, tc.xover)
			h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
			_, entries, resp, err := fetchEntries(t, h, "news:g.test", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkCommands(t, f, tc.cmds...)
			if resp.Body != nil || resp.Kind != schemes.EntryDir || resp.Name != "g.test" {
				t.Errorf("response %+v", resp)
			}
			if len(entries) != 2 {
				t.Fatalf("entries = %+v", entries)
			}
			date := time.Date(2026, 11, 21, 5, 37, 35, 0, time.UTC)
			e := entries[0]
			if e.Name != "1" || e.Title != "First" || schemestest.LocatorString(e) != fmt.Sprintf("nntp://127.0.0.1:%d/g.test/1", f.port()) ||
				e.Size != -1 || !e.ModTime.Equal(date) || e.Precision != time.Second || e.Kind != schemes.EntryFile ||
				e.Target != "" || e.Extra.String() != "message_id=1@x from=a@b (A) lines=6"+tc.bytes1 {
				t.Errorf("entry 1 = %+v (%s) [%s]", e, schemestest.LocatorString(e), e.Extra.String())
			}
			if e := entries[1]; e.Name != "3" || e.Title != "Third" || e.Size != -1 || e.Extra.String() != "message_id=3@x from=c@d lines=2 bytes=100" {
				t.Errorf("entry 3 = %+v [%s]", e, e.Extra.String())
			}
		})
	}
}

func TestOverviewMax(t *testing.T) {
	f := newFake(t, func(_ *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return capsINN
		case "GROUP big":
			return "211 1000 1 1000 big\r\n"
		case "OVER 998-1000":
			// A server sending more than asked: only the newest 3 are kept.
			var b strings.Builder
			b.WriteString("224 ok\r\n")
			for n := 990; n <= 1000; n++ {
				fmt.Fprintf(&b, "%d\ts\tf\td\t<%d@x>\t\t1\t1\r\n", n, n)
			}
			return b.String() + ".\r\n"
		case "GROUP empty":
			return "211 0 5 4 empty\r\n"
		}
		return ""
	})
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port()), Max: 3}
	_, entries, _, err := fetchEntries(t, h, "news:big", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 || entries[0].Name != "998" {
		t.Errorf("entries = %+v", entries)
	}
	_, entries, resp, err := fetchEntries(t, h, "news:empty", nil, nil)
	if err != nil || resp.Listing == nil || len(entries) != 0 {
		t.Errorf("empty group: %+v %+v %v", entries, resp, err)
	}
}

func TestListActiveFallback(t *testing.T) {
	active := "215 list\r\ncontrol 0000000000 0000000001 n\r\nlocal.test 0000000003 0000000001 y\r\nmod.x 5 3 m\r\n.\r\n"
	for _, tc := range []struct {
		name   string
		active bool
		cmds   []string
	}{
		{"LIST ACTIVE", true, []string{"CAPABILITIES", "LIST ACTIVE"}},
		{"LIST", false, []string{"CAPABILITIES", "LIST ACTIVE", "LIST"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(_ *fakeConn, cmd string) string {
				switch {
				case cmd == "CAPABILITIES":
					return capsINN
				case cmd == "LIST ACTIVE" && tc.active, cmd == "LIST" && !tc.active:
					return active
				case cmd == "LIST ACTIVE":
					return "501 syntax error\r\n"
				}
				return ""
			})
			h := &Handler{Getenv: func(k string) string {
				if k == "NNTPSERVER" {
					return fmt.Sprintf("127.0.0.1:%d", f.port())
				}
				return ""
			}}
			_, entries, _, err := fetchEntries(t, h, "news:*", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkCommands(t, f, tc.cmds...)
			want := []string{
				"control news:control articles=0 low=1 high=0 status=no-posting",
				"local.test news:local.test articles=3 low=1 high=3 status=posting",
				"mod.x news:mod.x articles=3 low=3 high=5 status=moderated",
			}
			if len(entries) != len(want) {
				t.Fatalf("entries %+v", entries)
			}
			for i, e := range entries {
				if got := e.Name + " " + schemestest.LocatorString(e) + " " + e.Extra.String(); got != want[i] || e.Kind != schemes.EntryDir || e.Size != -1 {
					t.Errorf("entry %d = %q (%+v), want %q", i, got, e, want[i])
				}
			}
		})
	}
}

// authServer requires AUTHINFO (480) for GROUP and ARTICLE.
func authServer(t *testing.T) *fakeServer {
	return authFake(t, func(cmd string) string {
		switch cmd {
		case "GROUP local.test":
			return "211 1 1 1 local.test\r\n"
		case "ARTICLE 1":
			return "220 1 <a@x>\r\nbody\r\n.\r\n"
		}
		return ""
	})
}

// authFake is an INN-like server that answers 480 until the client logs in
// as reader/s3cret, and then answers with authed.
func authFake(t *testing.T, authed func(cmd string) string) *fakeServer {
	return newFake(t, func(c *fakeConn, cmd string) string {
		switch {
		case cmd == "CAPABILITIES":
			return capsINN
		case strings.HasPrefix(cmd, "AUTHINFO USER "):
			c.authUser = strings.TrimPrefix(cmd, "AUTHINFO USER ")
			return "381 password please\r\n"
		case strings.HasPrefix(cmd, "AUTHINFO PASS "):
			if c.authUser == "reader" && cmd == "AUTHINFO PASS s3cret" {
				c.authed = true
				return "281 welcome\r\n"
			}
			return "481 authentication failed\r\n"
		case !c.authed:
			return "480 authentication required\r\n"
		}
		return authed(cmd)
	})
}

func TestAuthOn480(t *testing.T) {
	f := authServer(t)
	var buf bytes.Buffer
	tr := transport.NewTrace(&buf)
	creds := func(scheme, host string, port int) (string, string, bool) { return "reader", "s3cret", true }
	raw := fmt.Sprintf("nntp://127.0.0.1:%d/local.test/1", f.port())
	b, _, err := fetchAll(t, &Handler{}, raw, tr, creds)
	if err != nil || string(b) != "body\n" {
		t.Fatalf("%q, %v", b, err)
	}
	checkCommands(t, f, "CAPABILITIES", "GROUP local.test", "AUTHINFO USER reader", "AUTHINFO PASS s3cret",
		"CAPABILITIES", "GROUP local.test", "ARTICLE 1")
	if strings.Contains(buf.String(), "s3cret") || !strings.Contains(buf.String(), "> AUTHINFO PASS ****") {
		t.Errorf("trace:\n%s", buf.String())
	}
}

func TestAuthFromURLIsEager(t *testing.T) {
	f := authServer(t)
	tr := &recTrace{}
	raw := fmt.Sprintf("nntp://reader:s3cret@127.0.0.1:%d/local.test/1", f.port())
	if _, _, err := fetchAll(t, &Handler{}, raw, tr, nil); err != nil {
		t.Fatal(err)
	}
	checkCommands(t, f, "CAPABILITIES", "AUTHINFO USER reader", "AUTHINFO PASS s3cret", "CAPABILITIES",
		"GROUP local.test", "ARTICLE 1")
	if strings.Contains(tr.String(), "s3cret") {
		t.Errorf("password in trace:\n%s", tr)
	}
}

func TestAuthErrors(t *testing.T) {
	f := authServer(t)
	raw := fmt.Sprintf("nntp://127.0.0.1:%d/local.test/1", f.port())
	// A 480 says where a login comes from, in the caller's words.
	for words, name := range map[*schemes.Words]string{{}: "fetch.Credentials", &callerWords: "<fetch.Credentials>"} {
		_, _, err := fetchAll(t, &Handler{words: *words}, raw, nil, nil)
		e := checkKind(t, err, schemes.KindPermission, 480)
		if !strings.Contains(e.Msg, "(give a user and password with "+name+", netrc, or in the URL)") || e.Kind.ExitCode() != 4 {
			t.Errorf("480 without credentials: %v", e)
		}
	}
	bad := func(string, string, int) (string, string, bool) { return "reader", "wrong", true }
	_, _, err := fetchAll(t, &Handler{}, raw, nil, bad)
	checkKind(t, err, schemes.KindPermission, 481)
	raw = fmt.Sprintf("nntp://reader:nope@127.0.0.1:%d/local.test/1", f.port())
	_, _, err = fetchAll(t, &Handler{}, raw, nil, nil)
	e := checkKind(t, err, schemes.KindPermission, 481)
	if strings.Contains(e.Error(), "nope") {
		t.Errorf("password in error %q", e)
	}
}

func TestSafetyBeforeConnecting(t *testing.T) {
	f := newFake(t, func(*fakeConn, string) string { return "" })
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	for _, raw := range []string{"news:a%20b@c", "news:a%0D%0AQUIT@c", "news:a%00@c", "news:a%09b@c", "news:a%7Fb@c"} {
		_, _, err := fetchAll(t, h, raw, nil, nil)
		e := checkKind(t, err, schemes.KindSafety, 0)
		if e.Part != "message_id" || e.Kind.ExitCode() != 7 {
			t.Errorf("%s: %v part %q", raw, e, e.Part)
		}
		if _, err := h.Explain(&schemes.Request{URL: locate(t, raw)}); schemes.KindOf(err) != schemes.KindSafety {
			t.Errorf("Explain(%s) = %v", raw, err)
		}
	}
	// Credentials go on AUTHINFO lines: CR or LF in them is refused too.
	for _, raw := range []string{fmt.Sprintf("nntp://u%%0D%%0AQUIT:p@127.0.0.1:%d/g/1", f.port()),
		fmt.Sprintf("nntp://u:p%%0A@127.0.0.1:%d/g/1", f.port())} {
		_, _, err := fetchAll(t, h, raw, nil, nil)
		checkKind(t, err, schemes.KindSafety, 0)
	}
	bad := func(string, string, int) (string, string, bool) { return "u", "p\r\nQUIT", true }
	_, _, err := fetchAll(t, h, "news:a@b", nil, bad)
	checkKind(t, err, schemes.KindSafety, 0)
	if f.connCount() != 0 {
		t.Errorf("%d connections made", f.connCount())
	}
}

func TestNewsServerSetting(t *testing.T) {
	noEnv := func(string) string { return "" }
	req := &schemes.Request{URL: locate(t, "news:local.test"), Dialer: fakeDialer{}}
	// The option is named as the caller does.
	for words, name := range map[*schemes.Words]string{{}: "option nntp-server", &callerWords: "<nntp-server>"} {
		_, err := (&Handler{Getenv: noEnv, words: *words}).Fetch(context.Background(), req)
		e := checkKind(t, err, schemes.KindUsage, 0)
		if !strings.Contains(e.Msg, "give one with "+name+" host[:port] or the NNTPSERVER environment variable, or in the URL (news://host[:port]/group)") {
			t.Errorf("message %q does not say how to set a server", e.Msg)
		}
		_, err = (&Handler{Server: "h:x", words: *words}).Explain(req)
		if e := checkKind(t, err, schemes.KindUsage, 0); !strings.HasPrefix(e.Msg, name+` "h:x": `) {
			t.Errorf("%v does not name %s", e, name)
		}
	}
	for _, tc := range []struct {
		server, env, want string
	}{
		{"news.example:1119", "", "connect news.example:1119"},
		{"News.Example", "", "connect news.example:119"},
		{"[::1]:120", "", "connect [::1]:120"},
		{"::1", "", "connect [::1]:119"},
		{"", "env.example", "connect env.example:119"},
		{"flag.example", "env.example", "connect flag.example:119"},
	} {
		h := &Handler{Server: tc.server, Getenv: func(string) string { return tc.env }}
		plan, err := h.Explain(req)
		if err != nil || plan[0] != tc.want {
			t.Errorf("server %q env %q: %v, %v; want %q", tc.server, tc.env, plan, err, tc.want)
		}
	}
	for _, bad := range []string{"h:0", "h:x", "h:70000", "a b", ":119"} {
		_, err := (&Handler{Server: bad}).Explain(req)
		if e := checkKind(t, err, schemes.KindUsage, 0); !strings.Contains(e.Msg, "option nntp-server") {
			t.Errorf("%q: %v", bad, e)
		}
	}
	// news://host/ names its server itself.
	plan, err := (&Handler{Getenv: noEnv}).Explain(&schemes.Request{URL: locate(t, "news://n.example:1119/local.test")})
	if err != nil || plan[0] != "connect n.example:1119" {
		t.Errorf("news://: %v, %v", plan, err)
	}
}

func TestExplain(t *testing.T) {
	h := &Handler{Server: "h.example", Max: 5}
	for _, tc := range []struct {
		raw  string
		want []string
	}{
		{"news:a@b", []string{"ARTICLE <a@b>"}},
		{"news:g.x", []string{"GROUP g.x", "OVER low-high over the newest 5 articles"}},
		{"news:*", []string{"LIST ACTIVE"}},
		{"nntp://u:pw@h/g.x/7", []string{"AUTHINFO USER u", "AUTHINFO PASS ****", "GROUP g.x", "ARTICLE 7"}},
		{"nntps://h/g.x/7", []string{"connect h:563 (TLS)"}},
	} {
		plan, err := h.Explain(&schemes.Request{URL: locate(t, tc.raw)})
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: plan lacks %q:\n%s", tc.raw, w, text)
			}
		}
		if strings.Contains(text, "pw") {
			t.Errorf("%s: password in plan", tc.raw)
		}
	}
}

func TestConnectionReuse(t *testing.T) {
	f := newFake(t, func(_ *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return capsINN
		case "GROUP g":
			return "211 2 1 2 g\r\n"
		case "ARTICLE 1", "ARTICLE 2":
			return "220 " + cmd[8:] + " <x@y>\r\nbody " + cmd[8:] + "\r\n.\r\n"
		case "ARTICLE <gone@x>":
			return "430 no\r\n"
		}
		return ""
	})
	raw := fmt.Sprintf("nntp://127.0.0.1:%d/g/", f.port())
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	for _, u := range []string{raw + "1", raw + "2", "news:gone@x", raw + "1"} {
		b, _, err := fetchAll(t, h, u, nil, nil)
		if u == "news:gone@x" {
			checkKind(t, err, schemes.KindNotFound, 430)
			continue
		}
		if err != nil || !strings.HasPrefix(string(b), "body ") {
			t.Fatalf("%s: %q %v", u, b, err)
		}
	}
	if f.connCount() != 1 {
		t.Errorf("%d connections for 4 URLs on one server, want 1", f.connCount())
	}
	closeIdle(h)

	// A body closed before its end makes the connection unusable.
	resp, err := h.Fetch(context.Background(), &schemes.Request{URL: locate(t, raw+"1"), Dialer: fakeDialer{}, Conns: conns(h)})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, _, err := fetchAll(t, h, raw+"2", nil, nil); err != nil {
		t.Fatal(err)
	}
	if f.connCount() != 3 {
		t.Errorf("%d connections, want 3", f.connCount())
	}
	closeIdle(h)

	// MaxIdle < 0: one connection per URL.
	h = &Handler{}
	noPool(h)
	for range 2 {
		if _, _, err := fetchAll(t, h, raw+"1", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if f.connCount() != 5 {
		t.Errorf("%d connections, want 5", f.connCount())
	}
}

func TestStaleConnectionRedialed(t *testing.T) {
	served := 0
	f := newFake(t, func(_ *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return capsINN
		case "ARTICLE <a@x>":
			served++
			if served == 2 {
				return "<close>" // the server dropped the idle connection
			}
			return "220 0 <a@x>\r\nbody\r\n.\r\n"
		}
		return ""
	})
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	for range 2 {
		tr := &recTrace{}
		if b, _, err := fetchAll(t, h, "news:a@x", tr, nil); err != nil || string(b) != "body\n" {
			t.Fatalf("%q %v\n%s", b, err, tr)
		}
	}
	if f.connCount() != 2 {
		t.Errorf("%d connections, want 2", f.connCount())
	}
}

func TestBounds(t *testing.T) {
	long := strings.Repeat("x", maxLine+10)
	f := newINNFake(t, map[string]string{
		"ARTICLE <big@x>": "220 0 <big@x>\r\n" + strings.Repeat("0123456789abcdef\r\n", 100) + ".\r\n",
		// A line longer than the buffer streams through in pieces.
		"ARTICLE <longline@x>": "220 0 <longline@x>\r\n" + long + "\r\n.\r\n",
		"GROUP g":              "211 1 1 1 g\r\n",
		"OVER 1-1":             "224 ok\r\n1\t" + long + "\r\n.\r\n",
		"LIST ACTIVE":          "215 ok\r\nbad line\r\n.\r\n",
	})
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port()), MaxBytes: 1000}
	_, _, err := fetchAll(t, h, "news:big@x", nil, nil)
	checkKind(t, err, schemes.KindProtocol, 0)
	h = &Handler{Server: h.Server}
	b, _, err := fetchAll(t, h, "news:longline@x", nil, nil)
	if err != nil || string(b) != long+"\n" {
		t.Errorf("long line: %d bytes, %v", len(b), err)
	}
	_, _, err = fetchAll(t, h, "news:g", nil, nil)
	checkKind(t, err, schemes.KindProtocol, 0)
	_, _, err = fetchAll(t, h, "news:*", nil, nil)
	checkKind(t, err, schemes.KindProtocol, 0)
}

func TestCancel(t *testing.T) {
	block := make(chan struct{})
	f := newFake(t, func(_ *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return capsINN
		case "ARTICLE <slow@x>":
			<-block
			return "<close>"
		}
		return ""
	})
	defer close(block)
	ctx, cancel := context.WithCancel(context.Background())
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	done := make(chan error)
	go func() {
		_, err := h.Fetch(ctx, &schemes.Request{URL: locate(t, "news:slow@x"), Dialer: fakeDialer{}, Conns: conns(h)})
		done <- err
	}()
	for len(f.commands()) < 2 {
		// wait for ARTICLE to be sent
		select {
		case err := <-done:
			t.Fatal(err)
		default:
		}
	}
	cancel()
	checkKind(t, <-done, schemes.KindCanceled, 0)
	_, err := h.Fetch(ctx, &schemes.Request{URL: locate(t, "news:slow@x"), Dialer: fakeDialer{}, Conns: conns(h)})
	checkKind(t, err, schemes.KindCanceled, 0)
}

func TestList(t *testing.T) {
	f := overviewServer(t, capsINN, true, false)
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	resp, err := h.List(context.Background(), &schemes.Request{URL: locate(t, "news:g.test"), Dialer: fakeDialer{}, Conns: conns(h)})
	if err != nil {
		t.Fatal(err)
	}
	if entries, err := schemes.ReadAll(resp.Listing); err != nil || len(entries) != 2 {
		t.Errorf("List = %+v, %v", entries, err)
	}
	_, err = h.List(context.Background(), &schemes.Request{URL: locate(t, "news:a@b"), Dialer: fakeDialer{}, Conns: conns(h)})
	checkKind(t, err, schemes.KindUsage, 0)
}

var _ io.Reader = (*dotReader)(nil)

// tlsServer answers like INN with STARTTLS on offer when offer is set.
func tlsServer(t *testing.T, cfg *tls.Config, offer bool) *fakeServer {
	caps := capsINN
	if offer {
		caps = strings.Replace(caps, "READER\r\n", "READER\r\nSTARTTLS\r\n", 1)
	}
	return newFake(t, func(c *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return caps
		case "STARTTLS":
			if offer {
				return "<starttls>"
			}
			return "580 Can not initiate TLS negotiation\r\n"
		case "ARTICLE <a@x>":
			return "220 0 <a@x>\r\nsecret body\r\n.\r\n"
		}
		return ""
	}, cfg)
}

func TestNNTPS(t *testing.T) {
	srv, cli := testCert(t)
	var req *schemes.Request
	f2 := newFake(t, func(c *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return capsINN
		case "GROUP g":
			return "211 1 1 1 g\r\n"
		case "ARTICLE 1":
			return "220 1 <a@x>\r\nover tls\r\n.\r\n"
		}
		return ""
	}, srv)
	f2.mu.Lock()
	f2.implicitTLS = true
	f2.mu.Unlock()
	req = &schemes.Request{URL: locate(t, fmt.Sprintf("nntps://127.0.0.1:%d/g/1", f2.port())), Dialer: fakeDialer{cli}}
	h := &Handler{}
	defer closeIdle(h)
	calls := startTLSCalls.Load()
	resp, err := h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if n := startTLSCalls.Load() - calls; n != 1 {
		t.Errorf("%d StartTLS calls, want 1", n)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != "over tls\n" {
		t.Errorf("%q %v", b, err)
	}
	// An untrusted certificate fails (no TLS config trusting it).
	req.Dialer = fakeDialer{}
	_, err = (&Handler{}).Fetch(context.Background(), req)
	checkKind(t, err, schemes.KindSafety, 0)
}

func TestStartTLS(t *testing.T) {
	srv, cli := testCert(t)
	f := tlsServer(t, srv, true)
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	tr := &recTrace{}
	calls := startTLSCalls.Load()
	// --ssl-reqd: the fetch Client asks it of the request.
	req := &schemes.Request{URL: locate(t, "news:a@x"), Dialer: fakeDialer{cli}, Conns: conns(h), Trace: tr, RequireTLS: true}
	resp, err := h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if n := startTLSCalls.Load() - calls; n != 1 {
		t.Errorf("%d StartTLS calls, want 1", n)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "secret body\n" {
		t.Errorf("body %q", b)
	}
	checkCommands(t, f, "CAPABILITIES", "STARTTLS", "CAPABILITIES", "ARTICLE <a@x>")

	// --ssl-reqd against a server without STARTTLS: exit 7, nothing sent in clear.
	f = tlsServer(t, srv, false)
	h = &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	_, err = h.Fetch(context.Background(), &schemes.Request{URL: locate(t, "news:a@x"), Dialer: fakeDialer{cli}, Conns: conns(h), RequireTLS: true})
	if e := checkKind(t, err, schemes.KindSafety, 0); !strings.Contains(e.Msg, "does not offer STARTTLS and fetch.RequireTLS requires TLS") {
		t.Errorf("refusal %q does not name the setting", e.Msg)
	}
	checkCommands(t, f, "CAPABILITIES")
	for _, requireTLS := range []bool{false, true} {
		plan, _ := h.Explain(&schemes.Request{URL: locate(t, "news:a@x"), RequireTLS: requireTLS})
		if got := strings.Contains(strings.Join(plan, "\n"), "STARTTLS"); got != requireTLS {
			t.Errorf("RequireTLS %v: plan %q", requireTLS, plan)
		}
	}
	// The plan names what requires TLS, and where a login comes from, as
	// the caller does.
	h.words = callerWords
	plan, _ := h.Explain(&schemes.Request{URL: locate(t, "news:a@x"), RequireTLS: true})
	for _, want := range []string{"STARTTLS (required: <fetch.RequireTLS>), then CAPABILITIES again",
		"(on 480: AUTHINFO USER/PASS with <fetch.Credentials> or netrc credentials, then the command again)"} {
		if !slices.Contains(plan, want) {
			t.Errorf("plan %q lacks %q", plan, want)
		}
	}
}

// TestRequireTLSNeverReusesClearText: a session kept from a request in
// clear text is not lent to one that requires TLS, which connects again
// and upgrades before it asks for anything.
func TestRequireTLSNeverReusesClearText(t *testing.T) {
	srv, cli := testCert(t)
	f := tlsServer(t, srv, true)
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	for _, requireTLS := range []bool{false, true} {
		req := &schemes.Request{URL: locate(t, "news:a@x"), Dialer: fakeDialer{cli}, Conns: conns(h), RequireTLS: requireTLS}
		resp, err := h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("RequireTLS %v: %v", requireTLS, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	checkCommands(t, f, "CAPABILITIES", "ARTICLE <a@x>", "CAPABILITIES", "STARTTLS", "CAPABILITIES", "ARTICLE <a@x>")
}

// TestCanceledBodyFailsWithDataBuffered: the whole article is in the
// client's buffer after the first read, so only the context check can stop
// a canceled transfer from looking complete.
func TestCanceledBodyFailsWithDataBuffered(t *testing.T) {
	f := newINNFake(t, map[string]string{
		"ARTICLE <dots@x.test>": "220 0 <dots@x.test> article\r\n" + articleWire,
	})
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := h.Fetch(ctx, &schemes.Request{URL: locate(t, "news:dots@x.test"), Dialer: fakeDialer{}, Conns: conns(h), Trace: &recTrace{}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := resp.Body.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := io.ReadAll(resp.Body); schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("read after cancel: %v, want canceled", err)
	}
}

// TestSchemesCaps: news, nntp and nntps retrieve, list and speak TLS
// (STARTTLS, or nntps), and pipeline unless the Window says not to; the
// registry accepts those claims.
func TestSchemesCaps(t *testing.T) {
	base := schemes.Retrieves | schemes.Lists | schemes.TLS
	for _, tt := range []struct {
		name string
		h    *Handler
		want schemes.Caps
	}{
		{"default", nil, base | schemes.Pipelines},
		{"window 8", &Handler{Window: 8}, base | schemes.Pipelines},
		{"no pipelining", &Handler{Window: 1}, base},
	} {
		r := schemes.NewRegistry()
		for _, s := range Schemes(tt.h) {
			r.Register(s) // panics on a claim the handler does not back
			if s.Caps != tt.want {
				t.Errorf("%s: %s: caps %v, want %v", tt.name, s.Name, s.Caps, tt.want)
			}
		}
		if got := strings.Join(r.Names(), " "); got != "news nntp nntps" {
			t.Errorf("names %q", got)
		}
	}
}
