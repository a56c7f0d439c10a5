package gopher

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// FuzzParseMenu: any bytes parse without panic, within the line cap;
// every entry's Locator parses back to itself and its Name is safe.
func FuzzParseMenu(f *testing.F) {
	for _, s := range []string{
		"iWelcome\t\tnull.host\t1\r\n0LF\t/text/lf.txt\t127.0.0.1\t7070\r\n.\r\n",
		"1Docs\t/docs\tExample.org\t70\t+\r\n0Form\t/f\th\t7071\t?\n",
		"8Telnet\talice\t127.0.0.1\t2323\r\nhL\tURL:http://x/\th\t70\r\n3err\t\terror.host\t1",
		"0\t\t\t\r\n\t\t\t\t\t\n0x\ty\t[::1]\t70\n9a\t%zz\th\t99999\n", "",
		"0dots\t..\th\t70\r\nhU\tURL:http://x/a/b.html?q#f\th\t70\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		items, _, err := parseMenu(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			if len(it.Raw) > maxLine {
				t.Fatalf("line of %d bytes kept", len(it.Raw))
			}
			for _, scheme := range []string{"gopher", "gophers"} {
				e := it.Entry(scheme)
				if e.Locator != nil {
					u := e.Locator.String()
					if g := mustParse(t, u); g.String() != u || g.Generic().Scheme != scheme {
						t.Fatalf("%q: URL %q re-formats as %q", it.Raw, u, g.String())
					}
				}
				if e.Name != "" {
					if n, ok := schemes.SafeName(e.Name); !ok || n != e.Name {
						t.Fatalf("%q: unsafe name %q", it.Raw, e.Name)
					}
				}
			}
			if it.Valid && parseMenuItem(formatItem(it)).Selector != it.Selector {
				t.Fatalf("%q: selector does not survive formatItem", it.Raw)
			}
		}
	})
}

// FuzzParseAttributes: any bytes parse without panic; views, questions and
// the listing's entries never panic either, and the entries' Locators
// round-trip.
func FuzzParseAttributes(f *testing.F) {
	f.Add(strings.TrimPrefix(attrsReply, "+-1\r\n"))
	f.Add(strings.TrimPrefix(askReply, "+-2\r\n"))
	f.Add("junk\r\n+:\r\n+A B:\r\n+X:\r\n\r\n:\r\n+ASK:\r\n Select:\r\n Choose:\r\n:x\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		items, err := parseAttributes(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range items {
			a.Info()
			for _, v := range a.Views() {
				_ = v.Plus()
			}
			qs := a.Questions()
			vals := make([]string, len(qs))
			block, err := dataBlock("gopher", qs, vals)
			if err != nil {
				t.Fatal(err)
			}
			if _, rest, ok := readBlock(block); !ok || rest != "" {
				t.Fatalf("data block %q does not read as one +-1 block", block)
			}
		}
		g := mustParse(t, "gopher://h/0x")
		l := &attrListing{g: g, item: g, lr: &lineReader{br: bufio.NewReaderSize(strings.NewReader(in), 4096)}}
		for {
			line, err := l.lr.next()
			if err != nil {
				break
			}
			e, ok := l.entry(line)
			if !ok {
				continue
			}
			if e.Kind != schemes.EntryInfo && e.Kind != schemes.EntryFile {
				t.Fatalf("%q: entry of kind %s", line, e.Kind)
			}
			if e.Locator != nil {
				if u := e.Locator.String(); mustParse(t, u).String() != u {
					t.Fatalf("%q: Locator %q does not round-trip", in, u)
				}
			}
		}
	})
}

// FuzzTextReader: text conversion never panics and without a "." line it
// only drops the CR of CRLF pairs.
func FuzzTextReader(f *testing.F) {
	f.Add("a\r\n.\r\n..\r\nb\r\n.\r\n", false)
	f.Add("\r\r\n\n.\n", true)
	f.Fuzz(func(t *testing.T, in string, unstuff bool) {
		tr := &textReader{br: bufio.NewReaderSize(strings.NewReader(in), 16), unstuff: unstuff}
		out, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if !unstuff && !strings.Contains(in, ".") && len(in) < 16 && string(out) != strings.ReplaceAll(in, "\r\n", "\n") {
			t.Fatalf("%q -> %q", in, out)
		}
	})
}

// FuzzRequestLine: no CR, LF or NUL reaches the wire (beyond the final
// CRLF) unless the request was built from answers. Whatever the URL, its
// request is refused (KindSafety) or is exactly one line — TAB-separated
// fields, one CRLF at its end, no NUL — so no URL, not even RFC 1738
// §3.4.9's filled form, writes a second line to the server.
func FuzzRequestLine(f *testing.F) {
	for _, s := range []string{
		"gopher://h/", "gopher://h/0/a%09%09+", "gopher://h/7/s%09w%09!+ABSTRACT%20+SMELL",
		"gopher://h/0/form.txt%09%09+%091%0D%0A+-1%0D%0AAlice%0D%0A.%0D%0A", "gopher://h/0a%0D%0Ab",
		"gopher://h/0a%09%09+%091%0D%0A+x%0D%0A", "gopher://h/1%09%09$", "gopher://h/0a%00b",
		"gopher://h/0/form.txt%09%09+%091%0D%0A+-1%0D%0AA%00%0D%0A.%0D%0A", hostileURL,
		"gopher://h/0x%09%09+%0AQUIT", "gopher://h/0x%09%09+%0D", "gopher://h/0x%09%09+%091",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := schemes.Parse(raw)
		if err != nil || (u.Scheme != "gopher" && u.Scheme != "gophers") {
			return
		}
		g, err := Parse(u)
		if err != nil {
			return
		}
		line, err := requestLine(g, g.Search, g.Plus)
		if err != nil {
			if schemes.KindOf(err) != schemes.KindSafety {
				t.Fatalf("%s: %v", raw, err)
			}
			return
		}
		first, ok := strings.CutSuffix(line, "\r\n")
		if !ok || strings.ContainsAny(first, "\r\n\x00") || strings.Count(first, "\t") > 2 {
			t.Fatalf("%s: request %q is not one line of at most three fields", raw, line)
		}
	})
}

// FuzzFormSubmission: a submission built from answers, whatever they hold,
// is the item's one request line then one +-1 data block that a server
// reads to its "." line and no further — no answer ends the block early,
// adds a line a server would read as a new request, or carries a NUL —
// and the block gives back each answer (its line ends as the kind sends
// them).
func FuzzFormSubmission(f *testing.F) {
	f.Add("AskL", "a\r\n.\r\nQUIT\r\n", "Ask", ".\r\nHELO x\r\n.")
	f.Add("Ask", "\r\n.\r\n", "AskP", ".")
	f.Add("AskF", ".\n..\r.\r\n", "Note", "x\r\n.\r\n")
	f.Add("Select", "\x00", "Choose", "\r")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		qs := []question{{Kind: k1, Prompt: "one"}, {Kind: k2, Prompt: "two"}}
		vals := []string{v1, v2}
		g := mustParse(t, "gopher://h/0/form.txt%09%09?")
		line, err := formSubmission(g, g.Search, qs, vals)
		sentNUL := false // a Note's answer is not sent
		for i, q := range qs {
			sentNUL = sentNUL || q.Kind != "Note" && strings.ContainsRune(vals[i], 0)
		}
		if sentNUL {
			if schemes.KindOf(err) != schemes.KindSafety || line != "" {
				t.Fatalf("NUL in an answer: %q %v, want refused", line, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		block, ok := strings.CutPrefix(line, "/form.txt\t+\t1\r\n")
		if !ok {
			t.Fatalf("submission %q does not start with its request line", line)
		}
		got, rest, ok := readBlock(block)
		if !ok || rest != "" {
			t.Fatalf("%q: the block ends early or bytes follow it (%q)", block, rest)
		}
		if want := sentAnswers(qs, vals); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("block %q gives lines %q, want %q", block, got, want)
		}
	})
}

// FuzzDotReader: a `+-1` body reads, unstuffed, up to its first "." line
// and ends there; a body without one fails with errNoDot after what came
// — never taken for a whole document. A small buffer splits long lines.
func FuzzDotReader(f *testing.F) {
	for _, s := range []string{"line\r\n..dot\r\n.\r\nafter", "line\r\n", "line\r\npart", ".\n", "", "a.\r\n.x\r\n", "0123456789abcdefghij\r\n.\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want strings.Builder
		terminated := false
		for rest := in; rest != ""; {
			line, tail, ok := strings.Cut(rest, "\n")
			if ok {
				line += "\n"
			}
			if line == ".\r\n" || line == ".\n" {
				terminated = true
				break
			}
			if strings.HasPrefix(line, "..") {
				line = line[1:]
			}
			want.WriteString(line)
			rest = tail
		}
		d := &dotReader{lr: bufio.NewReaderSize(strings.NewReader(in), 16), unstuff: true}
		got, err := io.ReadAll(d)
		if terminated && err != nil || !terminated && !errors.Is(err, errNoDot) {
			t.Fatalf("%q: err %v (terminated %v)", in, err, terminated)
		}
		if string(got) != want.String() {
			t.Fatalf("%q: read %q, want %q", in, got, want.String())
		}
	})
}
