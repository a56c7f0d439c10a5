package ftp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// countDialer is transport's Dialer counting the connections it opens
// and the TLS handshakes it does.
type countDialer struct {
	*transport.Dialer
	dials, handshakes atomic.Int64
}

func (c *countDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	c.dials.Add(1)
	return c.Dialer.Dial(ctx, scheme, host, port)
}

func (c *countDialer) StartTLS(ctx context.Context, nc net.Conn, scheme, host string, opts ...schemes.TLSOption) (net.Conn, error) {
	c.handshakes.Add(1)
	return c.Dialer.StartTLS(ctx, nc, scheme, host, opts...)
}

type tenv struct {
	h     *Handler
	d     *countDialer
	pool  *transport.Pool
	trace *bytes.Buffer
}

func newEnv(t *testing.T) *tenv {
	e := &tenv{h: &Handler{AnonPassword: "me@example.org"}, d: &countDialer{Dialer: &transport.Dialer{IdleTimeout: 10 * time.Second}},
		pool: &transport.Pool{}, trace: &bytes.Buffer{}}
	t.Cleanup(e.pool.CloseIdle)
	return e
}

// callerWords are a caller's own words for options and settings
// ("<ascii>"), which a handler built from the declaration's Values uses
// in its messages.
var callerWords = Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()

func (e *tenv) req(t *testing.T, raw string) *schemes.Request {
	t.Helper()
	g, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := Parse(g)
	if err != nil {
		t.Fatal(err)
	}
	return &schemes.Request{URL: loc, Dialer: e.d, Conns: e.pool, Trace: transport.NewTrace(e.trace)}
}

func (e *tenv) get(t *testing.T, raw string) (string, *schemes.Response, error) {
	t.Helper()
	resp, err := e.h.Fetch(context.Background(), e.req(t, raw))
	if err != nil {
		return "", nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return string(b), resp, err
}

// fetch runs req and reads its whole body, failing t on any error.
func (e *tenv) fetch(t *testing.T, req *schemes.Request) (string, *schemes.Response) {
	t.Helper()
	resp, err := e.h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return string(b), resp
}

// idle is the number of control connections in the pool.
func (e *tenv) idle() int { return e.pool.Idle() }

// list fetches raw (a directory URL) and reads its whole listing.
func (e *tenv) list(t *testing.T, raw string) ([]schemes.Entry, *schemes.Response, error) {
	t.Helper()
	resp, err := e.h.Fetch(context.Background(), e.req(t, raw))
	if err != nil {
		return nil, nil, err
	}
	if resp.Body != nil || resp.Listing == nil {
		t.Fatalf("%s: body %v listing %v, want a listing only", raw, resp.Body, resp.Listing)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	return entries, resp, err
}

// names returns each entry's Name, or its Title when it has none.
func names(entries []schemes.Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Label())
	}
	return out
}

func wantCmds(t *testing.T, f *fakeFTP, want ...string) {
	t.Helper()
	got := f.commands()
	if !slices.Equal(got, want) {
		t.Errorf("commands:\n got %q\nwant %q", got, want)
	}
}

var anonLogin = []string{"USER anonymous", "PASS me@example.org", "PWD"}

func TestRetrAnonymous(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = "binary\x00data"
	e := newEnv(t)
	got, resp, err := e.get(t, f.url("pub/f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	// No MDTM: only a resume needs the time (see retr).
	if got != "binary\x00data" || resp.Size != 11 || !resp.ModTime.IsZero() || resp.Mode != "I" || !resp.ModeGuessed {
		t.Errorf("got %q size %d modtime %v mode %q guessed %v", got, resp.Size, resp.ModTime, resp.Mode, resp.ModeGuessed)
	}
	wantCmds(t, f, append(anonLogin, "CWD pub", "TYPE I", "SIZE f.bin", "EPSV", "RETR f.bin")...)
	if resp.Status != 226 { // the last reply, once the data is in (curl's response_code)
		t.Errorf("Status %d after the body, want 226", resp.Status)
	}
	if !strings.Contains(e.trace.String(), "> PASS ****") || strings.Contains(e.trace.String(), "me@example.org") {
		t.Errorf("trace does not redact PASS:\n%s", e.trace)
	}
}

func TestRFCExamples(t *testing.T) {
	for _, tc := range []struct {
		path string
		cmds []string
	}{
		{"%2Fetc/motd", []string{"CWD /etc", "SYST", "TYPE I", "SIZE motd", "EPSV", "RETR motd"}},
		{"/etc/motd", []string{"CWD ", "CWD etc", "SYST", "TYPE I", "SIZE motd", "EPSV", "RETR motd"}},
		{"etc/motd", []string{"CWD etc", "SYST", "TYPE I", "SIZE motd", "EPSV", "RETR motd"}},
		{"a%2Fb/c%3Bd%23e;type=i", []string{"CWD a/b", "TYPE I", "SIZE c;d#e", "EPSV", "RETR c;d#e"}},
	} {
		f := newFake(t)
		f.files["motd"] = "hello\r\n"
		f.files["c;d#e"] = "x"
		e := newEnv(t)
		if _, _, err := e.get(t, strings.Replace(f.url(tc.path), "127.0.0.1", "myname:pw@127.0.0.1", 1)); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		wantCmds(t, f, append([]string{"USER myname", "PASS pw", "PWD"}, tc.cmds...)...)
	}
}

func TestTypeA_CRLF(t *testing.T) {
	f := newFake(t)
	f.files["crlf.txt"] = "one\r\ntwo\r\nlone\rcr\r\n"
	e := newEnv(t)
	got, resp, err := e.get(t, f.url("text/crlf.txt;type=a"))
	if err != nil {
		t.Fatal(err)
	}
	if got != "one\ntwo\nlone\rcr\n" || resp.Size != -1 {
		t.Errorf("got %q size %d", got, resp.Size)
	}
	wantCmds(t, f, append(anonLogin, "CWD text", "TYPE A", "EPSV", "RETR crlf.txt")...)
}

func TestCRLFReaderBoundaries(t *testing.T) {
	in := "a\r\nb\r\r\nc\rd\r"
	for _, n := range []int{1, 2, 3, 64} {
		r := newCRLFReader(&oneByteReader{s: in})
		var out []byte
		buf := make([]byte, n)
		for {
			k, err := r.Read(buf)
			out = append(out, buf[:k]...)
			if err != nil {
				break
			}
		}
		if string(out) != "a\nb\r\nc\rd\r" {
			t.Errorf("buffer %d: %q", n, out)
		}
	}
}

type oneByteReader struct{ s string }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if o.s == "" {
		return 0, io.EOF
	}
	p[0] = o.s[0]
	o.s = o.s[1:]
	return 1, nil
}

func TestNLST(t *testing.T) {
	f := newFake(t)
	f.nlst = "a.txt\r\nb.txt\r\n.\r\nsub/c d\r\n"
	e := newEnv(t)
	entries, resp, err := e.list(t, strings.Replace(f.url("pub/;type=d"), "127.0.0.1", "u:pw@127.0.0.1", 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(entries); !slices.Equal(got, []string{"a.txt", "b.txt", "sub/c d"}) || resp.Kind != schemes.EntryDir {
		t.Errorf("entries %q kind %v", got, resp.Kind)
	}
	for _, en := range entries {
		if en.Kind != schemes.EntryUnknown || en.Size != -1 || en.Locator == nil {
			t.Errorf("NLST entry %+v: want unknown kind and size, with a Locator", en)
		}
	}
	// A name NLST gives as a path: Name is its last segment, and the
	// Locator retrieves the path in the listed directory, without ;type=d.
	if en := entries[2]; en.Name != "c d" || en.Title != "sub/c d" ||
		en.Locator.String() != "ftp://u:pw@"+f.ln.Addr().String()+"/pub/sub%2Fc%20d" {
		t.Errorf("path entry %+v (%s)", en, en.Locator)
	}
	if _, _, err = e.list(t, strings.Replace(f.url("pub/x;type=d"), "127.0.0.1", "u:pw@127.0.0.1", 1)); err != nil {
		t.Fatal(err)
	}
	// The second URL reuses the connection, which is in pub already with
	// TYPE A in effect.
	wantCmds(t, f, "USER u", "PASS pw", "PWD", "CWD pub", "TYPE A", "EPSV", "NLST", "EPSV", "NLST x")
	if f.connCount() != 1 {
		t.Errorf("%d control connections, want 1 (reuse)", f.connCount())
	}
}

func TestListUnixAndMLSD(t *testing.T) {
	f := newFake(t)
	f.listing = "total 8\r\ndrwxr-xr-x    2 0        0            4096 Jan 02  2026 sub dir\r\n" +
		"-rw-r--r--    1 ftp      ftp            29 Jan 02  2026 a #b;c.txt\r\nweird line\r\n"
	e := newEnv(t)
	entries, _, err := e.list(t, f.url("pub/"))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(entries); !slices.Equal(got, []string{"sub dir", "a #b;c.txt", "weird line"}) {
		t.Errorf("listing %q", got)
	}
	if len(entries) != 3 || entries[0].Kind != schemes.EntryDir || entries[1].Size != 29 ||
		entries[2].Kind != schemes.EntryRaw || entries[2].Name != "" || entries[2].Locator != nil {
		t.Errorf("entries %+v", entries)
	}
	if u := entries[1].Locator.String(); !strings.HasSuffix(u, "/pub/a%20%23b%3Bc.txt") {
		t.Errorf("entry URL %q", u)
	}
	if u := entries[0].Locator.String(); !strings.HasSuffix(u, "/pub/sub%20dir/") {
		t.Errorf("dir entry URL %q: want a directory URL", u)
	}
	wantCmds(t, f, append(anonLogin, "CWD pub", "FEAT", "TYPE A", "EPSV", "LIST -a")...)

	f2 := newFake(t)
	f2.mlsd = "type=cdir;modify=20260102030405; .\r\ntype=file;size=3;modify=20260102030405; x y\r\n"
	entries, _, err = e.list(t, f2.url(""))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(entries); !slices.Equal(got, []string{"x y"}) || entries[0].Size != 3 ||
		entries[0].Precision != time.Second {
		t.Errorf("mlsd %q %+v", got, entries)
	}
	wantCmds(t, f2, append(anonLogin, "FEAT", "TYPE A", "EPSV", "MLSD")...)
}

func TestPASVAddressIgnored(t *testing.T) {
	f := newFake(t)
	f.noEPSV = true
	f.files["f.bin"] = "data"
	e := newEnv(t)
	got, _, err := e.get(t, f.url("f.bin"))
	if err != nil || got != "data" {
		t.Fatalf("got %q, %v", got, err)
	}
	wantCmds(t, f, append(anonLogin, "TYPE I", "SIZE f.bin", "EPSV", "PASV", "RETR f.bin")...)
	if !strings.Contains(e.trace.String(), "data connection to 127.0.0.1:") {
		t.Errorf("trace:\n%s", e.trace)
	}
}

func TestResumeREST(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = "0123456789"
	e := newEnv(t)
	req := e.req(t, f.url("f.bin"))
	req.Offset, req.Partial.ModTime = 4, time.Now() // another tool's copy
	resp, err := e.h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != "456789" || resp.Offset != 4 || resp.Size != 10 {
		t.Errorf("got %q offset %d size %d err %v", b, resp.Offset, resp.Size, err)
	}
	wantCmds(t, f, append(anonLogin, "TYPE I", "SIZE f.bin", "MDTM f.bin", "EPSV", "REST 4", "RETR f.bin")...)
}

func kindCode(t *testing.T, err error, kind schemes.Kind, code int, retry bool) *schemes.Error {
	t.Helper()
	var se *schemes.Error
	if !errors.As(err, &se) {
		t.Fatalf("err = %v (%T), want *schemes.Error", err, err)
	}
	if se.Kind != kind || se.Code != code || se.Retryable != retry {
		t.Errorf("err %v: kind %v code %d retryable %v; want %v %d %v", err, se.Kind, se.Code, se.Retryable, kind, code, retry)
	}
	if strings.Contains(err.Error(), "pw@") || strings.Contains(se.URL, ":pw") {
		t.Errorf("password in error: %v", err)
	}
	return se
}

func TestErrors(t *testing.T) {
	t.Run("530", func(t *testing.T) {
		f := newFake(t)
		f.replies["PASS pw"] = "530 Login incorrect."
		_, _, err := newEnv(t).get(t, strings.Replace(f.url("f"), "127.0.0.1", "u:pw@127.0.0.1", 1))
		se := kindCode(t, err, schemes.KindPermission, 530, false)
		if se.Kind.ExitCode() != 4 {
			t.Errorf("exit %d", se.Kind.ExitCode())
		}
	})
	t.Run("530 echoes the password", func(t *testing.T) {
		f := newFake(t)
		f.replies["PASS pa55word"] = "530 Login incorrect for pa55word"
		_, _, err := newEnv(t).get(t, strings.Replace(f.url("f"), "127.0.0.1", "u:pa55word@127.0.0.1", 1))
		se := kindCode(t, err, schemes.KindPermission, 530, false)
		if strings.Contains(err.Error(), "pa55word") || !strings.Contains(se.Msg, "530 Login incorrect for ****") {
			t.Errorf("error %q: want the echoed password hidden", err)
		}
	})
	t.Run("550 echoes the password", func(t *testing.T) {
		// A password from netrc or --user, not the URL, and a reply after
		// the login.
		f := newFake(t)
		f.replies["RETR f.bin"] = "550 f.bin: not for user with password s3cr3t"
		e := newEnv(t)
		req := e.req(t, f.url("f.bin"))
		req.Credentials = func(string, string, int) (string, string, bool) { return "u", "s3cr3t", true }
		_, err := e.h.Fetch(context.Background(), req)
		kindCode(t, err, schemes.KindNotFound, 550, false)
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("error %q shows the password", err)
		}
	})
	t.Run("550 RETR", func(t *testing.T) {
		f := newFake(t)
		_, _, err := newEnv(t).get(t, f.url("no/such.bin"))
		se := kindCode(t, err, schemes.KindNotFound, 550, false)
		if !strings.Contains(se.Error(), "such.bin: No such file or directory") || se.Kind.ExitCode() != 3 {
			t.Errorf("message %q", se.Error())
		}
	})
	t.Run("550 CWD", func(t *testing.T) {
		f := newFake(t)
		f.replies["CWD no"] = "550 Failed to change directory."
		_, _, err := newEnv(t).get(t, f.url("no/such.bin"))
		kindCode(t, err, schemes.KindNotFound, 550, false)
	})
	for _, cmd := range []string{"", "USER anonymous", "PASS me@example.org", "PWD", "CWD no", "TYPE I", "SIZE f.bin",
		"EPSV", "RETR f.bin"} {
		t.Run("421 on "+cmd, func(t *testing.T) {
			f := newFake(t)
			f.files["f.bin"] = "x"
			busy := "421 Too many users, try later."
			if cmd == "" {
				f.greeting = busy
			} else {
				f.replies[cmd] = busy
			}
			e := newEnv(t)
			_, _, err := e.get(t, f.url("no/f.bin"))
			se := kindCode(t, err, schemes.KindBusy, 421, true)
			if se.Kind.ExitCode() != 5 {
				t.Errorf("exit %d", se.Kind.ExitCode())
			}
			if n := e.idle(); n != 0 {
				t.Errorf("%d connections kept for reuse after a 421", n)
			}
		})
	}
	t.Run("421 on LIST", func(t *testing.T) {
		f := newFake(t)
		f.replies["LIST -a"] = "421 Timeout."
		_, _, err := newEnv(t).list(t, f.url("pub/"))
		kindCode(t, err, schemes.KindBusy, 421, true)
	})
	t.Run("421 after listing data", func(t *testing.T) {
		f := newFake(t)
		f.listing = "-rw-r--r-- 1 0 0 3 Jan 02  2026 x\r\n"
		f.afterData = "421 Shutting down."
		_, _, err := newEnv(t).list(t, f.url("pub/"))
		kindCode(t, err, schemes.KindBusy, 421, true)
	})
	t.Run("425", func(t *testing.T) {
		f := newFake(t)
		f.files["f.bin"] = "x"
		f.replies["RETR f.bin"] = "425 Can't open data connection."
		_, _, err := newEnv(t).get(t, f.url("f.bin"))
		kindCode(t, err, schemes.KindConnect, 425, true)
	})
	t.Run("426 after data", func(t *testing.T) {
		// The data connection broke (RFC 959): exit 5, worth a retry.
		f := newFake(t)
		f.files["f.bin"] = "xyz"
		f.afterData = "426 Connection closed; transfer aborted."
		_, _, err := newEnv(t).get(t, f.url("f.bin"))
		kindCode(t, err, schemes.KindConnect, 426, true)
	})
	t.Run("451 after data", func(t *testing.T) {
		f := newFake(t)
		f.files["f.bin"] = "xyz"
		f.afterData = "451 Requested action aborted: local error in processing."
		_, _, err := newEnv(t).get(t, f.url("f.bin"))
		kindCode(t, err, schemes.KindProtocol, 451, true)
	})
	t.Run("control closed mid-transfer", func(t *testing.T) {
		f := newFake(t)
		f.files["f.bin"] = "0123456789"
		f.closeMid = 4
		_, _, err := newEnv(t).get(t, f.url("f.bin"))
		kindCode(t, err, schemes.KindConnect, 0, true)
	})
	t.Run("data connection reset mid-transfer", func(t *testing.T) {
		f := newFake(t)
		f.files["f.bin"] = strings.Repeat("x", 1<<20)
		f.resetMid = 1000
		_, _, err := newEnv(t).get(t, f.url("f.bin"))
		se := kindCode(t, err, schemes.KindConnect, 0, true)
		if se.Phase != "retr" || se.Kind.ExitCode() != 5 {
			t.Errorf("err %v: phase %q exit %d", err, se.Phase, se.Kind.ExitCode())
		}
	})
	t.Run("truncated", func(t *testing.T) {
		f := newFake(t)
		f.files["f.bin"] = "0123456789"
		f.truncate = 5
		_, _, err := newEnv(t).get(t, f.url("f.bin"))
		se := kindCode(t, err, schemes.KindProtocol, 0, true)
		if !strings.Contains(se.Msg, "truncated") {
			t.Errorf("msg %q", se.Msg)
		}
	})
	// The settings that supply a password, in the caller's words: the
	// library's, or a command line's.
	for words, want := range map[*schemes.Words]string{
		{}:           "(give it with fetch.Credentials bob:PASSWORD, fetch.Netrc or in the URL)",
		&callerWords: "(give it with <fetch.Credentials> bob:PASSWORD, <fetch.Netrc> or in the URL)",
	} {
		t.Run("no password, no terminal", func(t *testing.T) {
			f := newFake(t)
			e := newEnv(t)
			e.h.words = *words
			_, _, err := e.get(t, strings.Replace(f.url("f"), "127.0.0.1", "bob@127.0.0.1", 1))
			se := kindCode(t, err, schemes.KindPermission, 0, false)
			if !strings.Contains(se.Msg, want) {
				t.Errorf("msg %q, want %q", se.Msg, want)
			}
		})
	}
}

func TestEmptyPasswordIsSent(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = "x"
	if _, _, err := newEnv(t).get(t, strings.Replace(f.url("f.bin"), "127.0.0.1", "bob:@127.0.0.1", 1)); err != nil {
		t.Fatal(err)
	}
	if c := f.commands(); len(c) < 2 || c[1] != "PASS " {
		t.Errorf("commands %q: want an empty PASS", c)
	}
}

func TestPromptForPassword(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = "x"
	e := newEnv(t)
	req := e.req(t, strings.Replace(f.url("f.bin"), "127.0.0.1", "bob@127.0.0.1", 1))
	req.Prompt = func(ctx context.Context, prompt string, secret bool) (string, error) {
		if !secret {
			t.Error("password prompt echoes")
		}
		return "typed", nil
	}
	resp, err := e.h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if c := f.commands(); c[1] != "PASS typed" || strings.Contains(e.trace.String(), "typed") {
		t.Errorf("commands %q trace %s", c, e.trace)
	}
}

func TestGuardBeforeConnecting(t *testing.T) {
	e := newEnv(t)
	for _, raw := range []string{"ftp://127.0.0.1:1/a%0Db/f", "ftp://127.0.0.1:1/f%0A", "ftp://u%00:p@127.0.0.1:1/f",
		"ftp://u:p%0D%0AQUIT@127.0.0.1:1/f"} {
		_, err := e.h.Fetch(context.Background(), e.req(t, raw))
		if schemes.KindOf(err) != schemes.KindSafety || schemes.KindOf(err).ExitCode() != 7 {
			t.Errorf("%s: %v, want safety", raw, err)
		}
		if _, err := e.h.Explain(e.req(t, raw)); schemes.KindOf(err) != schemes.KindSafety {
			t.Errorf("Explain %s: %v", raw, err)
		}
	}
	if n := e.d.dials.Load(); n != 0 {
		t.Errorf("dialed %d times", n)
	}
}

func TestExplain(t *testing.T) {
	e := newEnv(t)
	plan, err := e.h.Explain(e.req(t, "ftp://h.example/pub/f"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"connect h.example:21", "USER anonymous", "PASS ****", "PWD", "CWD pub", "TYPE I", "SIZE f",
		"EPSV", "RETR f", "QUIT"}
	if !slices.Equal(plan, want) {
		t.Errorf("plan %q\nwant %q", plan, want)
	}
	plan, _ = e.h.Explain(e.req(t, "ftp://u:secret@h.example//etc/x;type=d"))
	if strings.Contains(strings.Join(plan, "\n"), "secret") || !slices.Contains(plan, "CWD ") || !slices.Contains(plan, "NLST x") {
		t.Errorf("plan %q", plan)
	}
}

// TestReuseReconnectsWhenStale: a pooled connection that the server
// dropped while it was idle (closed at once, or after vsftpd's "421
// Timeout.") is replaced: by the pool, which finds the close or the 421
// waiting on the socket, or, when they arrive just after that check, at
// the request's first command, which starts again on a new connection.
// Either way the request succeeds on a second connection.
func TestReuseReconnectsWhenStale(t *testing.T) {
	for _, drop := range []string{"", "421 Timeout."} {
		t.Run(drop, func(t *testing.T) {
			f := newFake(t)
			f.files["a.bin"] = "a"
			e := newEnv(t)
			if _, _, err := e.get(t, f.url("a.bin")); err != nil {
				t.Fatal(err)
			}
			f.dropIdle(drop)
			got, _, err := e.get(t, f.url("a.bin"))
			if err != nil || got != "a" {
				t.Fatalf("got %q %v", got, err)
			}
			if f.connCount() != 2 {
				t.Errorf("%d connections, want 2 (reconnect); trace:\n%s", f.connCount(), e.trace)
			}
		})
	}
}

// TestNoReconnectAfterAnAnswer: a reused connection that answered the
// request's first command is in order; a failure after that is the
// request's own, and is not tried again on a new connection.
func TestNoReconnectAfterAnAnswer(t *testing.T) {
	f := newFake(t)
	f.files["a.bin"] = "a"
	e := newEnv(t)
	if _, _, err := e.get(t, f.url("a.bin")); err != nil {
		t.Fatal(err)
	}
	f.reply("EPSV", "CLOSE") // SIZE is answered, then the server goes
	_, _, err := e.get(t, f.url("a.bin"))
	if schemes.KindOf(err) != schemes.KindConnect || f.connCount() != 1 {
		t.Errorf("err %v over %d connections; want a broken connection, not a second try", err, f.connCount())
	}
}

func TestCancelMidBody(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = strings.Repeat("x", 1<<20)
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := e.h.Fetch(ctx, e.req(t, f.url("f.bin")))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	// Even data already buffered cannot end well: the 226 must come over
	// the canceled control connection.
	if !errors.Is(err, context.Canceled) || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err %v (kind %v), want a cancellation", err, schemes.KindOf(err))
	}
	if e.idle() != 0 {
		t.Errorf("a control connection was kept after a canceled transfer")
	}
}

func TestIPv6EPSV(t *testing.T) {
	f := newFakeOn(t, "[::1]:0")
	f.files["f.bin"] = "six"
	e := newEnv(t)
	got, _, err := e.get(t, f.url("f.bin"))
	if err != nil || got != "six" {
		t.Fatalf("got %q, %v", got, err)
	}
	if !strings.Contains(e.trace.String(), "data connection to [::1]:") {
		t.Errorf("trace:\n%s", e.trace)
	}
}

func TestAnonPasswordChain(t *testing.T) {
	h := &Handler{}
	t.Setenv("URLGET_EMAIL", "")
	t.Setenv("EMAIL", "env@example.org")
	if got := h.anonPassword(); got != "env@example.org" {
		t.Errorf("EMAIL: %q", got)
	}
	t.Setenv("URLGET_EMAIL", "urlget@example.org")
	if got := h.anonPassword(); got != "urlget@example.org" {
		t.Errorf("URLGET_EMAIL: %q", got)
	}
	h.AnonPassword = "flag@example.org"
	if got := h.anonPassword(); got != "flag@example.org" {
		t.Errorf("--ftp-anon-password: %q", got)
	}
	t.Setenv("URLGET_EMAIL", "")
	t.Setenv("EMAIL", "")
	if got := (&Handler{}).anonPassword(); !strings.Contains(got, "@") {
		t.Errorf("user@host: %q", got)
	}
}

// TestCredentialsLogin: the caller's Credentials (-u, netrc: the fetch
// Client hands them out under its policy; the handler reads no netrc)
// log in when the URL names no user, and the URL's own user wins. A login
// whose password is not known is asked for at the terminal, else sent
// empty.
func TestCredentialsLogin(t *testing.T) {
	tests := []struct {
		name, userinfo string
		user, pass     string
		typed          string // what the person types; "": no terminal
		want           []string
	}{
		{"login and password", "", "nina", "n1na", "", []string{"USER nina", "PASS n1na"}},
		{"the URL's user wins", "u:p@", "nina", "n1na", "", []string{"USER u", "PASS p"}},
		{"login only, asked", "", "nina", "", "typed", []string{"USER nina", "PASS typed"}},
		{"login only, no terminal", "", "nina", "", "", []string{"USER nina", "PASS "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.bin"] = "x"
			e := newEnv(t)
			req := e.req(t, strings.Replace(f.url("f.bin"), "127.0.0.1", tc.userinfo+"127.0.0.1", 1))
			req.Credentials = func(string, string, int) (string, string, bool) { return tc.user, tc.pass, true }
			if tc.typed != "" {
				req.Prompt = func(context.Context, string, bool) (string, error) { return tc.typed, nil }
			}
			resp, err := e.h.Fetch(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if c := f.commands(); len(c) < 2 || c[0] != tc.want[0] || c[1] != tc.want[1] {
				t.Errorf("commands %q, want %q first", c, tc.want)
			}
			if tc.pass != "" && strings.Contains(e.trace.String(), tc.pass) {
				t.Errorf("trace shows the password:\n%s", e.trace)
			}
		})
	}
}

func TestCloseUnblocksRead(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = "0123456789"
	f.closeMid = -1
	// The server sends nothing on the data connection until the test ends.
	f.replies["RETR f.bin"] = "150 Here it comes, some day"
	e := newEnv(t)
	resp, err := e.h.Fetch(context.Background(), e.req(t, f.url("f.bin")))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go readAllSilent(resp.Body, done)
	await.Parked(t, "ftp.readAllSilent(") // the Read is blocked: now Close
	resp.Body.Close()
	if err := <-done; err == nil {
		t.Error("read of an aborted body ended without error")
	}
}

// readAllSilent reads r to its end and sends the error; a function of its
// own, so that await.Parked can tell when its Read is blocked.
func readAllSilent(r io.Reader, done chan<- error) {
	_, err := io.ReadAll(r)
	done <- err
}
