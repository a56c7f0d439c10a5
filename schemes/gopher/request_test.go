package gopher

import (
	"context"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// hostileURL is issue 31's attack: RFC 1738 §3.4.9's URL of a filled form,
// whose "data block" is an SMTP session for whatever listens on the port.
const hostileURL = "gopher://127.0.0.1:22525/0x%09%09+%091%0D%0A+-1%0D%0AHELO%20x%0D%0AQUIT%0D%0A.%0D%0A"

// dialCounter is a Dialer that counts the connections asked of it, so a
// test knows for certain that a refused request dialed nothing.
type dialCounter struct {
	transport.Dialer
	n atomic.Int32
}

func (d *dialCounter) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	d.n.Add(1)
	return d.Dialer.Dial(ctx, scheme, host, port)
}

// TestURLNeverCarriesLines: a URL whose selector, search or Gopher+ string
// holds a TAB, CR, LF or NUL — a data block above all — is refused with
// KindSafety naming the part, by Fetch, List and Explain alike, before
// anything is dialed: the server receives nothing.
func TestURLNeverCarriesLines(t *testing.T) {
	s := newFakeServer(t)
	for _, tt := range []struct {
		name, path string
		part, msg  string
	}{
		{"issue 31's SMTP session", strings.TrimPrefix(hostileURL, "gopher://127.0.0.1:22525"), "gopher+ string", "only sent from a form's answers"},
		{"RFC 1738 filled form", "/0/form.txt%09%09+%091%0D%0A+-1%0D%0AAlice%0D%0A.%0D%0A", "gopher+ string", "decoded TAB"},
		{"data flag alone", "/0/a%09%09+%091", "gopher+ string", "decoded TAB"},
		{"LF alone", "/1/%09%09+%0AFLUSHALL", "gopher+ string", "decoded LF"},
		{"CR alone", "/0/a%09%09+%0DQUIT", "gopher+ string", "decoded CR"},
		{"NUL", "/0/a%09%09!%00", "gopher+ string", "decoded NUL"},
		{"attributes then a line", "/1/a%09%09$%0D%0AQUIT", "gopher+ string", "decoded CR"},
		{"form with a line in its search", "/7/s%09a%0D%0AQUIT%09?", "search", "decoded CR"},
		{"form with a line in its selector", "/0/f%0D%0AQUIT%09%09?", "selector", "decoded CR"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := &dialCounter{}
			req := func() *schemes.Request { return &schemes.Request{URL: mustParse(t, s.url(tt.path)), Dialer: d} }
			h := &Handler{Form: Answers{"1": "x"}}
			_, fetchErr := h.Fetch(context.Background(), req())
			_, listErr := h.List(context.Background(), req())
			_, explainErr := h.Explain(req())
			for op, err := range map[string]error{"Fetch": fetchErr, "List": listErr, "Explain": explainErr} {
				se, ok := err.(*schemes.Error)
				if !ok || se.Kind != schemes.KindSafety || se.Part != tt.part || !strings.Contains(se.Msg, tt.msg) ||
					tt.part == "gopher+ string" && !strings.Contains(se.Msg, "only sent from a form's answers") {
					t.Errorf("%s: %v (%#v), want KindSafety on %q saying %q", op, err, se, tt.part, tt.msg)
				}
			}
			if n := d.n.Load(); n != 0 {
				t.Errorf("%d dials for a refused request", n)
			}
		})
	}
	if got := s.requests(); len(got) != 0 {
		t.Errorf("the server received %q", got)
	}
}

// TestHostileAnswersStayInTheBlock: answers are data, whatever they hold.
// A CR, LF or "." line in an answer is sent inside the one +-1 block (line
// ends joined or counted, dots stuffed), the server reads the block to the
// one "." line that ends it and nothing follows; a NUL is refused before
// the submission is sent.
func TestHostileAnswersStayInTheBlock(t *testing.T) {
	for _, tt := range []struct {
		name string
		vals []string // Ask, AskP, Choose, AskL, Select, Note (askReply's form)
		want string   // the data block sent, "" when refused
	}{
		{"dot line and commands in a line", []string{"a\r\n.\r\nQUIT\r\n", ".", "ftp", "", "1", ".\r\nQUIT"},
			"+-1\r\na . QUIT \r\n..\r\nftp\r\n0\r\n1\r\n.\r\n"},
		{"dot line and commands in lines", []string{"x", "p", "ftp", "l1\r\n.\r\nHELO x\r.\n", "0", ""},
			"+-1\r\nx\r\np\r\nftp\r\n4\r\nl1\r\n..\r\nHELO x\r\n..\r\n0\r\n.\r\n"},
		{"NUL", []string{"x\x00QUIT", "p", "ftp", "", "0", ""}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newFakeServer(t, askReply, "+-1\r\nThanks\r\n.\r\n")
			sub, err := mustParse(t, s.url("/0/form.txt%09%09?")).WithAnswers(tt.vals)
			if err != nil {
				t.Fatal(err)
			}
			_, err = fetchReq(t, &Handler{}, &schemes.Request{URL: sub, Dialer: &transport.Dialer{}})
			got := s.requests()
			if tt.want == "" {
				if se, ok := err.(*schemes.Error); !ok || se.Kind != schemes.KindSafety || se.Part != "form answer" {
					t.Errorf("err %v, want KindSafety on the form answer", err)
				}
				if len(got) != 1 {
					t.Errorf("sent %q, want only the questions asked", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := "/form.txt\t+\t1\r\n" + tt.want; len(got) != 2 || got[1] != want {
				t.Errorf("sent %q\nwant %q", got, want)
			}
			if lines, rest, ok := readBlock(tt.want); !ok || rest != "" || len(lines) != len(sentAnswers(questionsOf(t), tt.vals)) {
				t.Errorf("block %q reads as %q then %q (%v)", tt.want, lines, rest, ok)
			}
		})
	}
}

// questionsOf are askReply's questions.
func questionsOf(t *testing.T) []question {
	items, err := parseAttributes(strings.NewReader(strings.TrimPrefix(askReply, "+-2\r\n")))
	if err != nil || len(items) != 1 {
		t.Fatalf("%v %v", items, err)
	}
	return items[0].Questions()
}

// readBlock reads a +-1 data block as the least forgiving server would:
// a line ends at LF (or at a lone CR, for a server that takes one so), so
// every line must end in CRLF and hold no other CR or LF, nor a NUL. It
// returns the block's lines unstuffed, up to its "." line, and what
// follows that line; ok is false for a block without its header or its
// "." line, or with a line that is not exactly CRLF-ended.
func readBlock(block string) (lines []string, rest string, ok bool) {
	hdr, rest, found := strings.Cut(block, "\r\n")
	if !found || hdr != "+-1" {
		return nil, block, false
	}
	for rest != "" {
		l, tail, found := strings.Cut(rest, "\r\n")
		if !found || strings.ContainsAny(l, "\r\n\x00") {
			return lines, rest, false
		}
		rest = tail
		if l == "." {
			return lines, rest, true
		}
		lines = append(lines, strings.TrimPrefix(l, "."))
	}
	return lines, "", false
}

// lineEnd is any line end an answer may hold.
var lineEnd = regexp.MustCompile(`\r\n|\r|\n`)

// sentAnswers are the lines a block carries for vals, written
// independently of dataBlock: a Note nothing, AskL and AskF their line
// count then their lines, any other kind one line, its line ends spaces.
func sentAnswers(qs []question, vals []string) []string {
	var out []string
	for i, q := range qs {
		switch v := vals[i]; q.Kind {
		case "Note":
		case "AskL", "AskF":
			var ls []string
			if v != "" {
				ls = lineEnd.Split(strings.TrimSuffix(lineEnd.ReplaceAllString(v, "\n"), "\n"), -1)
			}
			out = append(append(out, strconv.Itoa(len(ls))), ls...)
		default:
			out = append(out, lineEnd.ReplaceAllString(v, " "))
		}
	}
	return out
}
