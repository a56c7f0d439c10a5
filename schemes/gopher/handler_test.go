package gopher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// fakeServer answers each connection with the next canned reply and
// records what the client sent (the request line, and a form's data block).
type fakeServer struct {
	ln      net.Listener
	mu      sync.Mutex
	replies []string
	routes  map[string]string // reply by request line, when set
	got     []string
	wg      sync.WaitGroup
}

func newFakeServer(t *testing.T, replies ...string) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeServer{ln: ln, replies: replies}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *fakeServer) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		br := bufio.NewReader(c)
		var req strings.Builder
		line, _ := br.ReadString('\n')
		req.WriteString(line)
		if f := strings.Split(strings.TrimRight(line, "\r\n"), "\t"); len(f) >= 3 && f[len(f)-1] == "1" {
			for {
				l, err := br.ReadString('\n')
				req.WriteString(l)
				if err != nil || l == ".\r\n" {
					break
				}
			}
		}
		s.mu.Lock()
		s.got = append(s.got, req.String())
		reply := ""
		switch {
		case s.routes != nil:
			reply = s.routes[req.String()]
		case len(s.replies) > 0:
			reply, s.replies = s.replies[0], s.replies[1:]
		}
		s.mu.Unlock()
		io.WriteString(c, reply)
		c.Close()
	}
}

// newRouteServer is a fakeServer that answers each request line with
// its reply in routes (nothing for others); every route may be asked
// any number of times.
func newRouteServer(t *testing.T, routes map[string]string) *fakeServer {
	s := newFakeServer(t)
	s.mu.Lock()
	s.routes = routes
	s.mu.Unlock()
	return s
}

func (s *fakeServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

func (s *fakeServer) url(path string) string {
	return "gopher://" + s.ln.Addr().String() + path
}

// callerWords are a caller's own words for options and settings
// ("<form>"), which a handler built from the declaration's Values uses in
// its messages.
var callerWords = Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()

func mustParse(t *testing.T, raw string) *URL {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// recTrace records the trace of a test request.
type recTrace = schemestest.Trace

// result is what a fetch gave: the body read to its end, or the entries
// of a listing read to its end (nil for a body).
type result struct {
	body    string
	entries []schemes.Entry
	resp    *schemes.Response
	tr      *recTrace
}

func fetch(t *testing.T, h *Handler, raw string) (result, error) {
	t.Helper()
	return fetchReq(t, h, &schemes.Request{URL: mustParse(t, raw), Dialer: &transport.Dialer{}})
}

// fetchReq runs req (its Trace set to a new recTrace) and reads what comes
// back to its end.
func fetchReq(t *testing.T, h *Handler, req *schemes.Request) (result, error) {
	t.Helper()
	tr := &recTrace{}
	req.Trace = tr
	resp, err := h.Fetch(context.Background(), req)
	if err != nil {
		return result{tr: tr}, err
	}
	r := result{resp: resp, tr: tr}
	switch {
	case resp.Listing != nil:
		if resp.Body != nil {
			t.Error("a response with both Body and Listing")
		}
		r.entries, err = schemes.ReadAll(resp.Listing)
	case resp.Body != nil:
		defer resp.Body.Close()
		var b []byte
		b, err = io.ReadAll(resp.Body)
		r.body = string(b)
	}
	return r, err
}

// TestTranscripts checks the bytes sent for every request form and what
// the client makes of each kind of reply.
func TestTranscripts(t *testing.T) {
	tests := []struct {
		name, path, reply string
		unstuff           bool
		wantReq, wantBody string
		wantSize          int64
	}{
		{"text LF lines, no terminator", "/0/text/lf.txt", "a\r\n.\r\n..\r\n.x\r\nb", false,
			"/text/lf.txt\r\n", "a\n.\n..\n.x\nb", -1},
		{"text with terminator", "/0/t", "a\r\nb\r\n.\r\n", false, "/t\r\n", "a\nb\n", -1},
		{"text unstuffed", "/0/t", "a\r\n..\r\n..x\r\n.\r\n", true, "/t\r\n", "a\n.\n.x\n", -1},
		{"text dot line not last", "/0/t", ".\r\nz\r\n", false, "/t\r\n", ".\nz\n", -1},
		{"binary to EOF", "/9/b.bin", "\x00\r\n.\r\n\xff", false, "/b.bin\r\n", "\x00\r\n.\r\n\xff", -1},
		{"selector starting with type", "/00/about.txt", "x", false, "0/about.txt\r\n", "x", -1},
		{"search", "/7/cgi-bin/search%09dot", "0a\ta\th\t70\r\n.\r\n", false, "/cgi-bin/search\tdot\r\n", "", 0},
		{"plus +N", "/0/about.txt%09%09+", "+8\r\nhi\r\nyo\r\nEXTRA", false, "/about.txt\t+\r\n", "hi\nyo\n", -1},
		{"plus +N binary", "/9/b%09%09+", "+3\r\nabcdef", false, "/b\t+\r\n", "abc", 3},
		{"plus +-1", "/9/b%09%09+", "+-1\r\nline\r\n..dot\r\n.\r\nafter", false, "/b\t+\r\n", "line\r\n.dot\r\n", -1},
		{"plus +-2", "/9/b%09%09+", "+-2\r\nBYTES\r\n.\r\n", false, "/b\t+\r\n", "BYTES\r\n.\r\n", -1},
		{"plus ignored by server", "/9/b%09%09+", "+x\r\nraw", false, "/b\t+\r\n", "+x\r\nraw", -1},
		{"search and plus", "/7/s%09words%09+", "+-1\r\n0a\ta\th\t70\t+\r\n.\r\n", false, "/s\twords\t+\r\n", "", 0},
		{"empty search on a search item kept", "/7/s%09%09+", "+-2\r\n", false, "/s\t\t+\r\n", "", 0},
		{"alternate view", "/0/x%09%09+application/postscript%20Es_ES", "+2\r\nPS", false,
			"/x\t+application/postscript Es_ES\r\n", "PS", -1},
		{"empty path", "/", "iHello\t\tnull.host\t1\r\n.\r\n", false, "\r\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFakeServer(t, tt.reply)
			r, err := fetch(t, &Handler{Unstuff: tt.unstuff}, s.url(tt.path))
			if err != nil {
				t.Fatalf("%v\ntrace:\n%s", err, r.tr)
			}
			if got := s.requests(); len(got) != 1 || got[0] != tt.wantReq {
				t.Errorf("sent %q, want %q", got, tt.wantReq)
			}
			if r.resp.Listing != nil {
				if tt.wantBody != "" {
					t.Errorf("a listing, want body %q", tt.wantBody)
				}
				return
			}
			if r.body != tt.wantBody {
				t.Errorf("body %q, want %q", r.body, tt.wantBody)
			}
			if tt.wantSize != 0 && r.resp.Size != tt.wantSize {
				t.Errorf("size %d, want %d", r.resp.Size, tt.wantSize)
			}
		})
	}
}

func TestTextWithoutTerminatorIsNotedOnlyInTrace(t *testing.T) {
	s := newFakeServer(t, "a\r\n", "a\r\n.\r\n")
	r, err := fetch(t, &Handler{}, s.url("/0/t"))
	if err != nil || !strings.Contains(r.tr.String(), `without a "." line`) {
		t.Errorf("err %v, trace %s", err, r.tr)
	}
	r, _ = fetch(t, &Handler{}, s.url("/0/t"))
	if strings.Contains(r.tr.String(), `without a "." line`) {
		t.Errorf("terminated text noted: %s", r.tr)
	}
}

func TestMenu(t *testing.T) {
	menu := "iWelcome\t\tnull.host\t1\r\n" +
		"0LF text file\t/text/lf.txt\t127.0.0.1\t7070\r\n" +
		"1Docs\t/docs\tExample.org\t70\t+\r\n" +
		"0Form\t/form.txt\texample.org\t7071\t?\r\n" +
		"7Search\t/cgi-bin/search\t127.0.0.1\t7070\r\n" +
		"hHTTP link\tURL:http://127.0.0.1:8080/\t127.0.0.1\t7070\r\n" +
		"8Telnet\talice\t127.0.0.1\t2323\r\n" +
		"TIBM\t\tmainframe\t23\r\n" +
		"3An error\t\terror.host\t1\r\n" +
		"garbage line\n" +
		"9Sp ace\t/a b\t127.0.0.1\t7070\r\n" +
		"0same.txt  \t/x/same.txt\t127.0.0.1\t7070\r\n" +
		".\r\n"
	s := newFakeServer(t, menu)
	r, err := fetch(t, &Handler{}, s.url("/1/"))
	if err != nil {
		t.Fatal(err)
	}
	if r.resp.Body != nil || r.resp.Kind != schemes.EntryDir || r.resp.Size != -1 {
		t.Errorf("response %+v", r.resp)
	}
	want := []struct{ name, title, kind, url, extra string }{
		{"", "Welcome", "info", "", "gopher_type=i"},
		{"lf.txt", "LF text file", "file", "gopher://127.0.0.1:7070/0/text/lf.txt", "gopher_type=0"},
		{"docs", "Docs", "dir", "gopher://example.org/1/docs", "gopher_type=1 gopher_plus=+"},
		{"form.txt", "Form", "file", "gopher://example.org:7071/0/form.txt", "gopher_type=0 gopher_plus=?"},
		{"search", "Search", "search", "gopher://127.0.0.1:7070/7/cgi-bin/search", "gopher_type=7"},
		{"", "HTTP link", "link", "gopher://127.0.0.1:7070/hURL:http://127.0.0.1:8080/", "gopher_type=h url=http://127.0.0.1:8080/"},
		{"", "Telnet", "session", "", "gopher_type=8 url=telnet://alice@127.0.0.1:2323/"},
		{"", "IBM", "session", "", "gopher_type=T url=tn3270://mainframe/"},
		{"", "An error", "info", "", "gopher_type=3 error=true"},
		{"", "garbage line", "raw", "", ""},
		{"a b", "Sp ace", "file", "gopher://127.0.0.1:7070/9/a%20b", "gopher_type=9"},
		{"same.txt", "", "file", "gopher://127.0.0.1:7070/0/x/same.txt", "gopher_type=0"},
	}
	if len(r.entries) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(r.entries), len(want), r.entries)
	}
	for i, w := range want {
		e := r.entries[i]
		if e.Name != w.name || e.Title != w.title || string(e.Kind) != w.kind || schemestest.LocatorString(e) != w.url ||
			e.Extra.String() != w.extra || e.Size != -1 {
			t.Errorf("entry %d = %q %q %s %q [%s] size %d, want %q %q %s %q [%s]", i, e.Name, e.Title, e.Kind, schemestest.LocatorString(e),
				e.Extra.String(), e.Size, w.name, w.title, w.kind, w.url, w.extra)
		}
	}
	if e := r.entries[5]; e.Target != "http://127.0.0.1:8080/" {
		t.Errorf("link target %q", e.Target)
	}
	// Every URL round-trips through the parser.
	for _, e := range r.entries {
		if e.Locator != nil {
			if g := mustParse(t, e.Locator.String()); g.String() != e.Locator.String() {
				t.Errorf("%s does not round-trip: %s", e.Locator, g)
			}
		}
	}
}

func TestErrorReplies(t *testing.T) {
	tests := []struct {
		name, path, reply string
		kind              schemes.Kind
		code              int
		msg               string
	}{
		{"error menu alone", "/1/nope", "3'/nope' does not exist\t\terror.host\t1\r\n", schemes.KindNotFound, 0, "does not exist"},
		{"gophernicus error menu with footer", "/1/nope", "3Error: not found\tTITLE\tnull.host\t1\r\ni___\t\tnull.host\t1\r\n.\r\n", schemes.KindNotFound, 0, "Error: not found"},
		{"error line for a document", "/9/nope", "3'/nope' does not exist (no handler found)\t\terror.host\t1\r\n", schemes.KindNotFound, 0, "no handler"},
		{"gophernicus text error", "/9/nope", "Error: File or directory not found! (null)\r\n____\r\n Gophered by Gophernicus/3.1.1 on Debian/12 x86_64\r\n", schemes.KindNotFound, 0, "File or directory not found"},
		{"plus error 1", "/0/nope%09%09+", "--2\r\n1 admin <root@127.0.0.1>\r\n'/nope' does not exist\r\n", schemes.KindNotFound, 1, "does not exist"},
		{"plus error 2", "/0/busy%09%09+", "--1\r\n2 admin <a@b>\r\nbusy\r\n.\r\n", schemes.KindBusy, 2, "busy"},
		{"plus error 3 without a place", "/0/old%09%09+", "--1\r\n3 admin <a@b>\r\nmoved away\r\n.\r\n", schemes.KindNotFound, 3, "moved away"},
		{"plus error sized", "/0/x%09%09+", "-6\r\n1 a\r\nx", schemes.KindNotFound, 1, ""},
		{"short +N", "/9/x%09%09+", "+10\r\nabc", schemes.KindConnect, 0, "7 bytes missing"},
		{"+-1 cut before its dot line", "/9/x%09%09+", "+-1\r\nline\r\n", schemes.KindConnect, 0, `ended before its "." line`},
		{"+-1 cut in a line", "/9/x%09%09+", "+-1\r\nline\r\npart", schemes.KindConnect, 0, `ended before its "." line`},
		{"+-1 text cut", "/0/x%09%09+", "+-1\r\nline\r\n", schemes.KindConnect, 0, `ended before its "." line`},
		{"+-1 menu cut", "/1/d%09%09+", "+-1\r\n0a\t/a\th\t70\t+\r\n", schemes.KindConnect, 0, `ended before its "." line`},
		{"+-1 attributes cut", "/1/d%09%09$", "+-1\r\n+INFO: 0a\t/a\th\t70\t+\r\n", schemes.KindConnect, 0, `ended before its "." line`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFakeServer(t, tt.reply)
			_, err := fetch(t, &Handler{}, s.url(tt.path))
			var se *schemes.Error
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *schemes.Error", err)
			}
			if se.Kind != tt.kind || se.Code != tt.code || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v (kind %v code %d), want kind %v code %d containing %q", err, se.Kind, se.Code, tt.kind, tt.code, tt.msg)
			}
		})
	}
}

func TestSafetyAndUsage(t *testing.T) {
	s := newFakeServer(t)
	for raw, kind := range map[string]schemes.Kind{
		"/0/a%0D%0Ab":           schemes.KindSafety,
		"/0/a%0Ab":              schemes.KindSafety,
		"/7/s%09a%0Db":          schemes.KindSafety,
		"/0/a%09%09+%0D%0Ax":    schemes.KindSafety,
		"/0/a%09%09+%091%0D%0A": schemes.KindSafety, // a data block only ever comes from answers (TestURLNeverCarriesLines)
		"/0/a%00b":              schemes.KindSafety,
		"/7/s%09a%00b":          schemes.KindSafety,
		"/0/a%09%09+%00":        schemes.KindSafety,
		"/7/search":             schemes.KindUsage,
	} {
		_, err := fetch(t, &Handler{}, s.url(raw))
		if k := schemes.KindOf(err); k != kind {
			t.Errorf("%s: err %v (kind %v), want %v", raw, err, k, kind)
		}
		if strings.Contains(raw, "%00") && !strings.Contains(err.Error(), "decoded NUL") {
			t.Errorf("%s: %v, want it to name the NUL", raw, err)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d connections for refused requests", n)
	}
}

func TestSearchFromFlagAndPrompt(t *testing.T) {
	s := newFakeServer(t, ".\r\n", ".\r\n")
	words := "two words"
	if _, err := fetch(t, &Handler{Search: &words}, s.url("/7/s")); err != nil {
		t.Fatal(err)
	}
	req := &schemes.Request{URL: mustParse(t, s.url("/7/s")), Dialer: &transport.Dialer{},
		Prompt: func(context.Context, string, bool) (string, error) { return "asked", nil }}
	if _, err := fetchReq(t, &Handler{}, req); err != nil {
		t.Fatal(err)
	}
	if got := s.requests(); len(got) != 2 || got[0] != "/s\ttwo words\r\n" || got[1] != "/s\tasked\r\n" {
		t.Errorf("sent %q", got)
	}
}

func TestMovedItemRedirects(t *testing.T) {
	s := newFakeServer(t, "--1\r\n3 admin <a@b>\r\nmoved\r\n0new\t/new\tother.host\t70\r\n.\r\n")
	r, err := fetch(t, &Handler{}, s.url("/0/old%09%09+"))
	if err != nil || r.resp.Redirect != "gopher://other.host/0/new" || r.resp.Body != nil || r.resp.Listing != nil {
		t.Errorf("%+v %v", r.resp, err)
	}
}

func TestRedirectItems(t *testing.T) {
	for raw, want := range map[string]string{
		"gopher://h/hURL:http://example.org/x": "http://example.org/x",
		"gopher://h:2323/8alice":               "telnet://alice@h:2323/",
	} {
		r, err := fetch(t, &Handler{}, raw)
		if err != nil || r.resp.Redirect != want || r.resp.Body != nil || r.resp.Listing != nil {
			t.Errorf("%s: redirect %v %v, want %s", raw, r.resp, err, want)
		}
	}
}

const attrsReply = "+-1\r\n" +
	"+INFO: 0about.txt\t/about.txt\t127.0.0.1\t7071\t+\r\n" +
	"+ADMIN:\r\n Admin: test admin <root@127.0.0.1>\r\n Mod-Date: Sat Nov 21 04:55:34 2026 <20261121045534>\r\n" +
	"+VIEWS:\r\n text/plain: <1k>\r\n text/plain De_DE: <1k>\r\n application/postscript: <2k>\r\n" +
	"+ABSTRACT:\r\n An abstract\r\n on two lines.\r\n" +
	"+SMELL:\r\n roses\r\n" +
	".\r\n"

func TestAttributes(t *testing.T) {
	s := newFakeServer(t, attrsReply, attrsReply, "+-2\r\n"+strings.TrimSuffix(strings.TrimPrefix(attrsReply, "+-1\r\n"), ".\r\n")+
		"+INFO: 1docs\t/docs\t127.0.0.1\t7071\t+\r\n+VIEWS:\r\n application/gopher+-menu: <512b>\r\n")
	r, err := fetch(t, &Handler{}, s.url("/0/about.txt%09%09!"))
	if err != nil {
		t.Fatal(err)
	}
	item := "gopher://127.0.0.1:7071/0/about.txt"
	want := []struct{ name, title, kind, url, extra string }{
		{"", "INFO: about.txt", "info", item, "gopher_type=0 gopher_plus=+ gopher_block=INFO"},
		{"", "ADMIN:", "info", "", "gopher_block=ADMIN"},
		{"", " Admin: test admin <root@127.0.0.1>", "info", "", "gopher_block=ADMIN"},
		{"", " Mod-Date: Sat Nov 21 04:55:34 2026 <20261121045534>", "info", "", "gopher_block=ADMIN"},
		{"", "VIEWS:", "info", "", "gopher_block=VIEWS"},
		{"about.txt", "text/plain", "file", item + "%09%09+text/plain", "gopher_type=0 view_type=text/plain view_size=1k"},
		{"about.txt", "text/plain De_DE", "file", item + "%09%09+text/plain%20De_DE", "gopher_type=0 view_type=text/plain view_lang=De_DE view_size=1k"},
		{"about.txt", "application/postscript", "file", item + "%09%09+application/postscript", "gopher_type=0 view_type=application/postscript view_size=2k"},
		{"", "ABSTRACT:", "info", "", "gopher_block=ABSTRACT"},
		{"", " An abstract", "info", "", "gopher_block=ABSTRACT"},
		{"", " on two lines.", "info", "", "gopher_block=ABSTRACT"},
		{"", "SMELL:", "info", "", "gopher_block=SMELL"},
		{"", " roses", "info", "", "gopher_block=SMELL"},
	}
	if len(r.entries) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(r.entries), len(want), r.entries)
	}
	for i, w := range want {
		e := r.entries[i]
		if e.Name != w.name || e.Title != w.title || string(e.Kind) != w.kind || schemestest.LocatorString(e) != w.url || e.Extra.String() != w.extra || e.Size != -1 {
			t.Errorf("entry %d = %q %q %s %q [%s] size %d\nwant %q %q %s %q [%s]", i, e.Name, e.Title, e.Kind, schemestest.LocatorString(e), e.Extra.String(), e.Size,
				w.name, w.title, w.kind, w.url, w.extra)
		}
	}
	if _, err := fetch(t, &Handler{}, s.url("/0/about.txt%09%09!+ABSTRACT%20+SMELL")); err != nil {
		t.Fatal(err)
	}
	r, err = fetch(t, &Handler{}, s.url("/1/%09%09$"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.entries); n != 16 {
		t.Errorf("%d entries for two items, want 16", n)
	}
	if e := r.entries[len(r.entries)-1]; schemestest.LocatorString(e) != "gopher://127.0.0.1:7071/1/docs%09%09+application/gopher+-menu" {
		t.Errorf("view of the second item: %q", schemestest.LocatorString(e))
	}
	want2 := []string{"/about.txt\t!\r\n", "/about.txt\t!+ABSTRACT +SMELL\r\n", "/\t$\r\n"}
	if got := s.requests(); strings.Join(got, "|") != strings.Join(want2, "|") {
		t.Errorf("sent %q, want %q", got, want2)
	}
}

func TestParseAttributesViews(t *testing.T) {
	items, err := parseAttributes(strings.NewReader(strings.TrimPrefix(attrsReply, "+-1\r\n")))
	if err != nil || len(items) != 1 {
		t.Fatal(items, err)
	}
	vs := items[0].Views()
	if len(vs) != 3 || vs[1] != (plusView{"text/plain", "De_DE", "<1k>"}) || vs[1].Plus() != "+text/plain De_DE" {
		t.Errorf("views %+v", vs)
	}
	if it, ok := items[0].Info(); !ok || it.Selector != "/about.txt" || it.Plus != "+" {
		t.Errorf("info %+v", it)
	}
}

func TestViews(t *testing.T) {
	s := newFakeServer(t, attrsReply)
	r, err := fetch(t, &Handler{Views: true}, s.url("/0/multi.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.requests(); len(got) != 1 || got[0] != "/multi.txt\t!\r\n" {
		t.Errorf("sent %q", got)
	}
	wantURL := s.url("/0/multi.txt%09%09+text/plain%20De_DE")
	if len(r.entries) != 3 {
		t.Fatalf("views %+v", r.entries)
	}
	if e := r.entries[1]; schemestest.LocatorString(e) != wantURL || e.Name != "multi.txt" || e.Title != "text/plain De_DE" ||
		e.Kind != schemes.EntryFile || e.Size != -1 || e.Extra.String() != "gopher_type=0 view_type=text/plain view_lang=De_DE view_size=1k" {
		t.Errorf("view %+v (%s)", e, schemestest.LocatorString(e))
	}
}

const askReply = "+-2\r\n+INFO: 0form.txt\t/form.txt\t127.0.0.1\t7071\t?\r\n" +
	"+ASK:\r\n Ask: What is your name?\tAnonymous\r\n AskP: Password?\r\n Choose: Favourite protocol?\tgopher\tftp\thttp\r\n" +
	" AskL: Comments?\r\n Select: Subscribe?:1\r\n Note: Thanks for filling this in.\r\n"

func TestForm(t *testing.T) {
	s := newFakeServer(t, askReply, "+-1\r\nThanks, Alice\r\n.\r\n")
	h := &Handler{Form: Answers{"What is your name?": "Alice", "2": ".secret", "favourite protocol": "ftp", "Comments?": "one\ntwo"}}
	r, err := fetch(t, h, s.url("/0/form.txt%09%09?"))
	if err != nil {
		t.Fatal(err)
	}
	if r.body != "Thanks, Alice\n" {
		t.Errorf("body %q", r.body)
	}
	want := []string{"/form.txt\t!\r\n", "/form.txt\t+\t1\r\n+-1\r\nAlice\r\n..secret\r\nftp\r\n2\r\none\r\ntwo\r\n1\r\n.\r\n"}
	if got := s.requests(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sent %q\nwant %q", got, want)
	}
}

func TestFormPromptsAndMissingAnswer(t *testing.T) {
	s := newFakeServer(t, askReply, "+-1\r\nok\r\n.\r\n", askReply)
	var asked []string
	answers := map[string]string{"What is your name? [Anonymous]: ": "", "Password?: ": "pw", "Comments? (end with a line \".\")\n": "l1"}
	prompt := func(_ context.Context, p string, secret bool) (string, error) {
		asked = append(asked, p)
		if strings.HasPrefix(p, "Favourite") {
			return "3", nil
		}
		if p == "" {
			return ".", nil
		}
		if v, ok := answers[p]; ok {
			if p == "Password?: " && !secret {
				t.Error("AskP asked with echo")
			}
			return v, nil
		}
		return "", nil
	}
	req := &schemes.Request{URL: mustParse(t, s.url("/0/form.txt%09%09?")), Dialer: &transport.Dialer{}, Prompt: prompt}
	if _, err := fetchReq(t, &Handler{}, req); err != nil {
		t.Fatal(err)
	}
	if got := s.requests(); len(got) != 2 || got[1] != "/form.txt\t+\t1\r\n+-1\r\nAnonymous\r\npw\r\nhttp\r\n1\r\nl1\r\n1\r\n.\r\n" {
		t.Errorf("sent %q (asked %q)", got, asked)
	}
	// No terminal and no --form for a question without default: exit 2.
	_, err := fetch(t, &Handler{}, s.url("/0/form.txt%09%09?"))
	if k := schemes.KindOf(err); k != schemes.KindUsage || !strings.Contains(err.Error(), "option form") {
		t.Errorf("err %v (kind %v), want usage naming the form option", err, k)
	}
}

func TestExplain(t *testing.T) {
	words := "w"
	for raw, want := range map[string]string{
		"gopher://h/":                  `connect h:70|send "\r\n"`,
		"gopher://h:7070/0/sel%09%09+": `connect h:7070|send "/sel\t+\r\n"`,
		"gopher://h/7/s":               `connect h:70|send "/s\tw\r\n"`,
		"gophers://h/9/b":              `connect h:` + strconv.Itoa(schemes.PortOf(declared, "gophers")) + ` (TLS)|send "/b\r\n"`,
		"gopher://h/hURL:http://x/":    `redirect to http://x/`,
		"gopher://h/0/f%09%09?":        `connect h:70|send "/f\t!\r\n"|ask the +ASK questions (option form NAME=VALUE, or the terminal)|connect h:70|send "/f\t+\t1\r\n+-1\r\n<answers, one a line>\r\n.\r\n"`,
	} {
		plan, err := (&Handler{Search: &words}).Explain(&schemes.Request{URL: mustParse(t, raw)})
		if err != nil || strings.Join(plan, "|") != want {
			t.Errorf("%s: %q %v, want %s", raw, plan, err, want)
		}
	}
}

// TestSearchNamesOption: a type 7 item with no search words, and no
// terminal to ask, fails naming the search option as the caller does;
// the plan shows the words as missing the same way.
func TestSearchNamesOption(t *testing.T) {
	for words, name := range map[*schemes.Words]string{{}: "option search", &callerWords: "<search>"} {
		h := &Handler{words: *words}
		_, err := fetch(t, h, "gopher://127.0.0.1:1/7/s")
		if !strings.Contains(fmt.Sprint(err), "give one with "+name+" WORDS or in the URL") {
			t.Errorf("err %v, want it to name %s", err, name)
		}
		plan, err := h.Explain(&schemes.Request{URL: mustParse(t, "gopher://h/7/s")})
		if err != nil || !strings.Contains(strings.Join(plan, "|"), `send "/s\t<search: `+name+` WORDS>\r\n"`) {
			t.Errorf("plan %q, %v", plan, err)
		}
	}
}

func TestList(t *testing.T) {
	// The empty reply answers the text item asked again the Gopher+ way
	// (askAgain): no header, so the plain reply stays cut short.
	s := newFakeServer(t, "0a\t/a\th\t70\r\n.\r\n", "text\r\n", "", "+-1\r\n+INFO: 0a\t/a\th\t70\r\n.\r\n")
	list := func(raw string) ([]schemes.Entry, error) {
		resp, err := (&Handler{}).List(context.Background(), &schemes.Request{URL: mustParse(t, raw), Dialer: &transport.Dialer{}})
		if err != nil {
			return nil, err
		}
		return schemes.ReadAll(resp.Listing)
	}
	ents, err := list(s.url("/1/"))
	if err != nil || len(ents) != 1 || schemestest.LocatorString(ents[0]) != "gopher://h/0/a" {
		t.Errorf("%+v %v", ents, err)
	}
	// List reads the reply as a menu whatever the item type says: this
	// one lacks the "." line a menu ends with, so after its line the
	// listing fails as a menu cut short.
	ents, err = list(s.url("/0/t"))
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindProtocol || len(ents) != 1 || ents[0].Kind != schemes.EntryRaw || ents[0].Title != "text" {
		t.Errorf("list of a text item: %+v %v", ents, err)
	}
	// A Gopher+ attribute request lists the attributes.
	ents, err = list(s.url("/0/a%09%09!"))
	if err != nil || len(ents) != 1 || ents[0].Title != "INFO: a" {
		t.Errorf("list of attributes: %+v %v", ents, err)
	}
	resp, err := (&Handler{}).List(context.Background(), &schemes.Request{URL: mustParse(t, "gopher://h/hURL:http://x/")})
	if err != nil || resp.Redirect != "http://x/" {
		t.Errorf("list of a URL: item: %+v %v", resp, err)
	}
}

func TestLongLinesAreCut(t *testing.T) {
	long := "0" + strings.Repeat("x", 3*maxLine) + "\t/s\th\t70\r\n"
	items, _, err := parseMenu(strings.NewReader(long + "1d\t/d\th\t70\r\n.\r\n"))
	if err != nil || len(items) != 2 || len(items[0].Raw) != maxLine || items[1].Selector != "/d" {
		t.Fatalf("%d items, %v", len(items), err)
	}
}

// TestShortPlusReplyOnOpenConnection: a `+N` reply from a server that
// keeps the connection open is complete after N bytes, an empty one too;
// nothing waits for more than the header line.
func TestShortPlusReplyOnOpenConnection(t *testing.T) {
	for _, tt := range []struct{ reply, body string }{{"+2\r\nhi", "hi"}, {"+0\r\n", ""}} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		done := make(chan struct{})
		defer close(done)
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			bufio.NewReader(c).ReadString('\n')
			io.WriteString(c, tt.reply)
			<-done // keep it open until the test ends
		}()
		r, err := fetch(t, &Handler{}, "gopher://"+ln.Addr().String()+"/9x%09%09+")
		if err != nil || r.body != tt.body {
			t.Errorf("%q: %q %v", tt.reply, r.body, err)
		}
	}
}

// endless repeats a menu line forever.
type endless struct{ line string }

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e.line)
	}
	return n, nil
}

func TestListingCap(t *testing.T) {
	_, _, err := parseMenu(&capReader{r: endless{"iinfo\t\tnull.host\t1\r\n"}, n: 10 << 10})
	if !errors.Is(err, errTooBig) {
		t.Errorf("menu: %v", err)
	}
	_, err = parseAttributes(&capReader{r: endless{"+X:\r\n y\r\n"}, n: 10 << 10})
	if !errors.Is(err, errTooBig) {
		t.Errorf("attributes: %v", err)
	}
}

// TestCanceledBodyFails: once the fetch's context is canceled, reading the
// body fails even though the whole (small) document has already arrived.
func TestCanceledBodyFails(t *testing.T) {
	s := newFakeServer(t, "just a few bytes")
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := (&Handler{}).Fetch(ctx, &schemes.Request{URL: mustParse(t, s.url("/9/f.bin")), Dialer: &transport.Dialer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	_, err = io.ReadAll(resp.Body)
	if !errors.Is(err, context.Canceled) || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err %v (kind %v), want a cancellation", err, schemes.KindOf(err))
	}
}

// TestSchemesCaps: both schemes retrieve and list, their menus are
// crawled, gophers is TLS (gopher cannot upgrade), and the registry
// accepts those claims.
func TestSchemesCaps(t *testing.T) {
	r := schemes.NewRegistry()
	for _, s := range Schemes(nil) {
		r.Register(s) // panics on a claim the handler does not back
		want := schemes.Retrieves | schemes.Lists | schemes.Crawls
		if s.Name == "gophers" {
			want |= schemes.TLS
		}
		// Not a redirect target by default (curl's --proto-redir): a
		// gopher request is built from the URL's own bytes.
		if s.Caps != want || s.Caps.Redirectable() {
			t.Errorf("%s: caps %v", s.Name, s.Caps)
		}
	}
}
