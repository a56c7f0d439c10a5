//go:build integration

package integration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/transport"
)

// The generic conformance suite is file-oriented (fixtures by path, a
// 64 MiB file, resume, odd file names); articles have none of that. These
// tests are its article-oriented counterpart against INN: fetch by
// message-id and by number, not found, cancel before dial and mid-transfer
// without leaks, deadline, no secret in output, 8 concurrent fetches; plus
// the seeded articles (dot lines, cross-post, reply, long header), group
// overviews, news:* and AUTHINFO.

// nntpSeeded is one article of integration/servers/inn2/articles.
type nntpSeeded struct {
	id     string // Message-ID with "<" ">"
	file   string
	groups map[string]int64 // group → article number
}

var nntpSeededArticles = []nntpSeeded{
	{testbed.MsgDots, "01-dots.art", map[string]int64{testbed.GroupTest: 1}},
	{testbed.MsgReply, "02-reply.art", map[string]int64{testbed.GroupTest: 2}},
	{testbed.MsgCross, "03-cross.art", map[string]int64{testbed.GroupTest: 3, testbed.GroupMisc: 1}},
	{testbed.MsgLongHeader, "04-long-header.art", map[string]int64{testbed.GroupMisc: 2}},
	{testbed.MsgWWW, "05-www.art", map[string]int64{testbed.GroupWWW: 1}},
}

// nntpArticleFile returns the seeded file's header and body, LF line ends.
func nntpArticleFile(t *testing.T, name string) (head, body string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("servers", "inn2", "articles", name))
	if err != nil {
		t.Fatal(err)
	}
	h, bd, ok := strings.Cut(string(b), "\n\n")
	if !ok {
		t.Fatalf("%s: no blank line", name)
	}
	return h + "\n", bd
}

// nntpEnv is a handler and a counting dialer for INN.
type nntpEnv struct {
	h      *nntp.Handler
	dialer *conformance.CountingDialer
	pool   *transport.Pool // the requests' Conns, as a fetch Client's
	out    *bytes.Buffer
	mu     sync.Mutex
	tr     *transport.Trace
}

func newNNTPEnv(t *testing.T, h *nntp.Handler) (*nntpEnv, *conformance.SyncBuffer) {
	testbed.Require(t, testbed.INN)
	if h == nil {
		h = &nntp.Handler{}
	}
	if h.Server == "" {
		h.Server = testbed.Addr(testbed.NNTPPort)
	}
	out := &conformance.SyncBuffer{}
	e := &nntpEnv{h: h, dialer: conformance.NewCountingDialer(), pool: &transport.Pool{},
		tr: transport.NewTrace(out)}
	t.Cleanup(e.pool.CloseIdle)
	return e, out
}

func (e *nntpEnv) request(t *testing.T, raw string) *schemes.Request {
	t.Helper()
	loc, err := fetch.DefaultRegistry().Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return &schemes.Request{URL: loc, Dialer: e.dialer, Conns: e.pool, Trace: e.tr}
}

func (e *nntpEnv) get(t *testing.T, ctx context.Context, raw string) ([]byte, *schemes.Response, error) {
	t.Helper()
	resp, err := e.h.Fetch(ctx, e.request(t, raw))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return b, resp, err
}

// list lists raw (a group or news:*) and returns its entries.
func (e *nntpEnv) list(t *testing.T, ctx context.Context, raw string) ([]schemes.Entry, error) {
	t.Helper()
	resp, err := e.h.List(ctx, e.request(t, raw))
	if err != nil {
		return nil, err
	}
	return schemes.ReadAll(resp.Listing)
}

func nntpNewsID(id string) string { return "news:" + strings.Trim(id, "<>") }

func nntpURL(group string, n int64) string {
	return fmt.Sprintf("nntp://%s/%s/%d", testbed.Addr(testbed.NNTPPort), group, n)
}

// TestNNTPSeededArticles fetches every seeded article by message-id and by
// number in each of its groups, and compares with the file posted: the
// body byte for byte, the header lines all present (the server adds Path,
// Date, Xref, Injection-Info).
func TestNNTPSeededArticles(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	ctx := context.Background()
	for _, a := range nntpSeededArticles {
		t.Run(a.file, func(t *testing.T) {
			wantHead, wantBody := nntpArticleFile(t, a.file)
			got, resp, err := e.get(t, ctx, nntpNewsID(a.id))
			if err != nil {
				t.Fatal(err)
			}
			head, body, ok := strings.Cut(string(got), "\n\n")
			if !ok || body != wantBody {
				t.Errorf("body:\n%q\nwant:\n%q", body, wantBody)
			}
			for _, line := range strings.SplitAfter(wantHead, "\n") {
				if line != "" && !strings.Contains(head+"\n", line) {
					t.Errorf("header line %q missing from:\n%s", line, head)
				}
			}
			if resp.Status != 220 || strings.Contains(string(got), "\r") {
				t.Errorf("status %d, CR in output: %v", resp.Status, strings.Contains(string(got), "\r"))
			}
			for g, n := range a.groups {
				byNum, _, err := e.get(t, ctx, nntpURL(g, n))
				if err != nil || !bytes.Equal(byNum, got) {
					t.Errorf("%s: %v; differs from by message-id:\n%s", nntpURL(g, n), err, byNum)
				}
			}
		})
	}
	// Every URL reused the one connection.
	if d := e.dialer.Dials.Load(); d != 1 {
		t.Errorf("%d connections for %d fetches, want 1", d, 2*len(nntpSeededArticles)+1)
	}
}

// TestNNTPArticleDetails checks the seeded peculiarities: the lines that
// start with dots, the reply's References, the cross-post's Xref, the
// folded long header, and --head/--body.
func TestNNTPArticleDetails(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	ctx := context.Background()
	get := func(raw string) string {
		t.Helper()
		b, _, err := e.get(t, ctx, raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return string(b)
	}
	dots := get(nntpNewsID(testbed.MsgDots))
	if !strings.HasSuffix(dots, "\n.\n..\n.leading dot\nThe line before the end is a single dot.\n.\n") {
		t.Errorf("dot lines not unstuffed:\n%s", dots)
	}
	if r := get(nntpNewsID(testbed.MsgReply)); !strings.Contains(r, "\nReferences: "+testbed.MsgDots+"\n") {
		t.Errorf("reply lacks References:\n%s", r)
	}
	if c := get(nntpNewsID(testbed.MsgCross)); !strings.Contains(c, "local.test:3") || !strings.Contains(c, "local.misc:1") {
		t.Errorf("cross-post Xref:\n%s", c)
	}
	long := get(nntpNewsID(testbed.MsgLongHeader))
	start := strings.Index(long, "X-Long-Header:")
	end := strings.Index(long[start:], "chars end\n")
	if start < 0 || end < 1000 || strings.Count(long[start:start+end], "\n\t") != 14 {
		t.Errorf("long header (%d bytes) not kept folded:\n%s", end, long)
	}
	for _, raw := range []string{nntpNewsID(testbed.MsgCross), nntpURL(testbed.GroupMisc, 1)} {
		all := get(raw)
		hh := &nntp.Handler{Part: nntp.PartHead}
		hb := &nntp.Handler{Part: nntp.PartBody}
		eh, _ := newNNTPEnv(t, hh)
		eb, _ := newNNTPEnv(t, hb)
		head, _, err1 := eh.get(t, ctx, raw)
		body, _, err2 := eb.get(t, ctx, raw)
		if err1 != nil || err2 != nil || string(head)+"\n"+string(body) != all {
			t.Errorf("%s: head %q + body %q (%v, %v) != article %q", raw, head, body, err1, err2, all)
		}
	}
}

// hasBytes says the entry shows the overview's byte count (not its Size:
// that counts the article as stored, not as fetched).
func hasBytes(e schemes.Entry) bool {
	b, ok := e.Extra.Get("bytes")
	n, err := strconv.Atoi(b)
	return ok && err == nil && n > 0
}

// TestNNTPOverview lists the seeded groups, checking numbers, message-ids
// and that each entry's URLs fetch the article.
func TestNNTPOverview(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	ctx := context.Background()
	for g, want := range map[string][]string{
		testbed.GroupTest: {testbed.MsgDots, testbed.MsgReply, testbed.MsgCross},
		testbed.GroupMisc: {testbed.MsgCross, testbed.MsgLongHeader},
		testbed.GroupWWW:  {testbed.MsgWWW},
	} {
		for _, raw := range []string{"news:" + g, fmt.Sprintf("nntp://%s/%s", testbed.Addr(testbed.NNTPPort), g)} {
			ents, err := e.list(t, ctx, raw)
			if err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			if len(ents) != len(want) {
				t.Fatalf("%s: %d entries, want %d: %+v", raw, len(ents), len(want), ents)
			}
			for i, en := range ents {
				id, _ := en.Extra.Get("message_id")
				from, _ := en.Extra.Get("from")
				if en.Name != fmt.Sprint(i+1) || "<"+id+">" != want[i] || en.Locator == nil || en.Locator.String() != nntpURL(g, int64(i+1)) ||
					en.Kind != schemes.EntryFile || en.Title == "" || from == "" ||
					en.Size != -1 || !hasBytes(en) || en.ModTime.IsZero() || en.Precision != time.Second {
					t.Errorf("%s: entry %d = %+v", raw, i, en)
				}
			}
		}
	}
	// An entry's Locator and its message-id fetch the same article.
	ents, _ := e.list(t, ctx, "news:"+testbed.GroupTest)
	for _, en := range ents {
		id, _ := en.Extra.Get("message_id")
		a, _, err1 := e.get(t, ctx, "news:"+id)
		b, _, err2 := e.get(t, ctx, en.Locator.String())
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("news:%s vs %s: %v %v", id, en.Locator, err1, err2)
		}
	}
	// --max 2: the newest two.
	e2, _ := newNNTPEnv(t, &nntp.Handler{Max: 2})
	ents, err := e2.list(t, ctx, "news:"+testbed.GroupTest)
	if err != nil || len(ents) != 2 || ents[0].Name != "2" {
		t.Errorf("--max 2: %+v, %v", ents, err)
	}
}

// TestNNTPGroupList checks news:* against the groups the test bed creates.
func TestNNTPGroupList(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	ents, err := e.list(t, context.Background(), "news:*")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]schemes.Entry{}
	for _, en := range ents {
		byName[en.Name] = en
	}
	for g, n := range map[string]int64{testbed.GroupTest: 3, testbed.GroupMisc: 2, testbed.GroupWWW: 1} {
		en, ok := byName[g]
		var articles int64
		a, _ := en.Extra.Get("articles")
		fmt.Sscan(a, &articles)
		if !ok || articles < n || !hasExtra(en, "status", "posting") || en.Locator == nil || en.Locator.String() != "news:"+g ||
			en.Kind != schemes.EntryDir {
			t.Errorf("%s: %+v", g, en)
		}
	}
	if en := byName["control"]; !hasExtra(en, "status", "no-posting") {
		t.Errorf("control: %+v", en)
	}
}

// TestNNTPNotFound: 430 (message-id), 423 (number), 411 (group), all exit 3.
func TestNNTPNotFound(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	for raw, code := range map[string]int{
		"news:no-such-article@urlget.test":   430,
		nntpURL(testbed.GroupTest, 999):      423,
		nntpURL("no.such.group", 1):          411,
		"news:no.such.group":                 411,
		"news:%3Cno-such-2@urlget.test%3E":   430,
		nntpURL(testbed.GroupTest, 99999999): 423,
	} {
		_, _, err := e.get(t, context.Background(), raw)
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != schemes.KindNotFound || se.Code != code || se.Kind.ExitCode() != 3 {
			t.Errorf("%s: %v, want not found with code %d", raw, err, code)
		}
	}
	// A not-found reply leaves the connection usable.
	if _, _, err := e.get(t, context.Background(), nntpNewsID(testbed.MsgDots)); err != nil {
		t.Error(err)
	}
	if d := e.dialer.Dials.Load(); d != 1 {
		t.Errorf("%d connections, want 1", d)
	}
}

// TestNNTPAuthinfo authenticates as the configured user, keeps the
// password out of the trace, and refuses a wrong password with exit 4.
func TestNNTPAuthinfo(t *testing.T) {
	e, out := newNNTPEnv(t, nil)
	raw := fmt.Sprintf("nntp://%s:%s@%s/%s/1", testbed.NNTPUser, testbed.NNTPPassword, testbed.Addr(testbed.NNTPPort), testbed.GroupTest)
	got, _, err := e.get(t, context.Background(), raw)
	if err != nil {
		t.Fatal(err)
	}
	anon, _, _ := e.get(t, context.Background(), nntpURL(testbed.GroupTest, 1))
	if !bytes.Equal(got, anon) {
		t.Error("authenticated and anonymous fetches differ")
	}
	trace := out.String()
	if !strings.Contains(trace, "> AUTHINFO USER "+testbed.NNTPUser) || !strings.Contains(trace, "> AUTHINFO PASS ****") ||
		!strings.Contains(trace, "< 281") {
		t.Errorf("trace lacks the AUTHINFO exchange:\n%s", trace)
	}
	if strings.Contains(trace, testbed.NNTPPassword) {
		t.Errorf("password in trace:\n%s", trace)
	}
	// Authenticated and anonymous sessions are not shared.
	if d := e.dialer.Dials.Load(); d != 2 {
		t.Errorf("%d connections, want 2", d)
	}
	bad := fmt.Sprintf("nntp://%s:wrong-pass-3@%s/%s/1", testbed.NNTPUser, testbed.Addr(testbed.NNTPPort), testbed.GroupTest)
	_, _, err = e.get(t, context.Background(), bad)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindPermission || se.Code != 481 || strings.Contains(err.Error(), "wrong-pass-3") {
		t.Errorf("wrong password: %v", err)
	}
	if strings.Contains(out.String(), "wrong-pass-3") {
		t.Error("wrong password in trace")
	}
}

// TestNNTPThroughClient goes through fetch.Client and the registry, as
// urlget does, with the server from fetch.Config.
func TestNNTPThroughClient(t *testing.T) {
	testbed.Require(t, testbed.INN)
	c := &fetch.Client{Registry: mustRegistry(fetch.Config{Options: schemes.Options{"nntp-server": testbed.Addr(testbed.NNTPPort)}})}
	defer c.CloseIdleConnections()
	resp, err := c.Get(context.Background(), nntpNewsID(testbed.MsgWWW))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !strings.Contains(string(b), "news:local.test.") {
		t.Errorf("%q, %v", b, err)
	}
	plan, err := c.Explain("news:" + testbed.GroupTest)
	if err != nil || !strings.Contains(strings.Join(plan, "\n"), "OVER") {
		t.Errorf("explain: %v, %v", plan, err)
	}
}

// TestNNTPCancelBeforeDial: a canceled context never dials.
func TestNNTPCancelBeforeDial(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := e.get(t, ctx, nntpNewsID(testbed.MsgDots))
	if schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("err = %v, want canceled", err)
	}
	if d := e.dialer.Dials.Load(); d != 0 {
		t.Errorf("%d dials", d)
	}
}

// nntpPoster is an NNTP connection for posting test articles.
type nntpPoster struct{ c *textproto.Conn }

func nntpNewPoster(t testing.TB) *nntpPoster {
	t.Helper()
	conn, err := net.DialTimeout("tcp", testbed.Addr(testbed.NNTPPort), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c := textproto.NewConn(conn)
	if _, _, err := c.ReadCodeLine(200); err != nil {
		conn.Close()
		t.Fatal(err)
	}
	return &nntpPoster{c: c}
}

func (p *nntpPoster) post(t testing.TB, group, id, subject, body string) {
	t.Helper()
	if err := p.c.PrintfLine("POST"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.c.ReadCodeLine(340); err != nil {
		t.Fatalf("POST: %v", err)
	}
	w := p.c.DotWriter()
	fmt.Fprintf(w, "From: Tester <tester@urlget.test>\nNewsgroups: %s\nSubject: %s\nMessage-ID: %s\n\n%s", group, subject, id, body)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.c.ReadCodeLine(240); err != nil {
		t.Fatalf("posting %s: %v", id, err)
	}
}

func (p *nntpPoster) close() { p.c.PrintfLine("QUIT"); p.c.Close() }

// nntpPostBig posts an article of about 900 KB (INN's default limit is
// 1,000,000 bytes) to local.general, with lines that need dot-stuffing.
func nntpPostBig(t *testing.T) (id string, body string) {
	t.Helper()
	id = fmt.Sprintf("<big-%d@urlget.test>", time.Now().UnixNano())
	var b strings.Builder
	for i := 0; b.Len() < 900_000; i++ {
		fmt.Fprintf(&b, "%06d the quick brown fox jumps over the lazy dog; .dots and ..more dots\n", i)
		if i%100 == 0 {
			b.WriteString(".\n")
		}
	}
	p := nntpNewPoster(t)
	defer p.close()
	p.post(t, "local.general", id, "big article", b.String())
	return id, b.String()
}

// TestNNTPCancelMidTransfer reads part of a big article, cancels, and
// checks the read fails promptly and nothing is left open or running.
func TestNNTPCancelMidTransfer(t *testing.T) {
	e, _ := newNNTPEnv(t, &nntp.Handler{Part: nntp.PartBody})
	id, body := nntpPostBig(t)
	// The whole body first, to check the big article and dot lines.
	got, _, err := e.get(t, context.Background(), nntpNewsID(id))
	if err != nil || string(got) != body {
		t.Fatalf("big article: %d bytes (want %d), %v", len(got), len(body), err)
	}
	e.pool.CloseIdle()
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := e.h.Fetch(ctx, e.request(t, nntpNewsID(id)))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 64<<10)); err != nil {
		cancel()
		t.Fatal(err)
	}
	cancel()
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		done <- err
	}()
	select {
	case err := <-done:
		if schemes.KindOf(err) != schemes.KindCanceled {
			t.Errorf("read after cancel: %v, want canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("read did not return within 10s of cancel")
	}
	resp.Body.Close()
	e.pool.CloseIdle()
	nntpWaitUntil(t, "connections closed", func() bool { return e.dialer.Open.Load() == 0 })
	nntpWaitUntil(t, "goroutines gone", func() bool { return runtime.NumGoroutine() <= before })
}

// nntpWaitUntil waits, bounded, for cond: resources released by other
// goroutines have no event to wait on. It fails the test (t.Errorf) but
// lets it go on.
func nntpWaitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !await.Poll(cond) {
		t.Errorf("%s: not within %v", what, await.Timeout)
	}
}

// TestNNTPConcurrent8 fetches 8 articles at once with one Handler.
func TestNNTPConcurrent8(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	want := map[string][]byte{}
	for _, a := range nntpSeededArticles {
		b, _, err := e.get(t, context.Background(), nntpNewsID(a.id))
		if err != nil {
			t.Fatal(err)
		}
		want[a.id] = b
	}
	e.pool.CloseIdle()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		a := nntpSeededArticles[i%len(nntpSeededArticles)]
		raw := nntpNewsID(a.id)
		if i%2 == 1 {
			for g, n := range a.groups {
				raw = nntpURL(g, n)
				break
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, _, err := e.get(t, context.Background(), raw)
			if err == nil && !bytes.Equal(b, want[a.id]) {
				err = fmt.Errorf("%s: content differs", raw)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if d := e.dialer.Dials.Load(); d > 8+1 {
		t.Errorf("%d connections for 8 fetches", d)
	}
	e.pool.CloseIdle()
	nntpWaitUntil(t, "connections closed", func() bool { return e.dialer.Open.Load() == 0 })
}

// TestNNTPSafety: a message-id with CR LF or space is refused before
// connecting (exit 7).
func TestNNTPSafety(t *testing.T) {
	e, _ := newNNTPEnv(t, nil)
	for _, raw := range []string{"news:a%0D%0AQUIT@urlget.test", "news:a%20b@urlget.test", "news:a%00@urlget.test"} {
		_, _, err := e.get(t, context.Background(), raw)
		if schemes.KindOf(err) != schemes.KindSafety {
			t.Errorf("%s: %v, want a safety error", raw, err)
		}
	}
	if d := e.dialer.Dials.Load(); d != 0 {
		t.Errorf("%d dials", d)
	}
}

// TestNNTPSSLReqd: INN announces STARTTLS but has no certificate in the test
// bed (580); with --ssl-reqd nothing more is sent in clear text: exit 7.
func TestNNTPSSLReqd(t *testing.T) {
	e, out := newNNTPEnv(t, nil)
	req := e.request(t, nntpNewsID(testbed.MsgDots))
	req.RequireTLS = true // --ssl-reqd, as the fetch Client passes it
	_, err := e.h.Fetch(context.Background(), req)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindSafety || se.Code != 580 || se.Kind.ExitCode() != 7 {
		t.Errorf("err = %v, want safety with code 580", err)
	}
	if strings.Contains(out.String(), "> ARTICLE") {
		t.Errorf("article requested without TLS:\n%s", out)
	}
}
