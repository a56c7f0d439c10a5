package nntp

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// unstuff is the reference for dotReader: the whole block at once.
func unstuff(wire string) (string, bool) {
	var out strings.Builder
	for wire != "" {
		line, rest, ok := strings.Cut(wire, "\n")
		if !ok {
			return "", false // no terminator before the end
		}
		wire = rest
		if line == "." || line == ".\r" {
			return out.String(), true
		}
		line = strings.TrimPrefix(line, ".")
		if strings.HasSuffix(line, "\r") {
			line = line[:len(line)-1]
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	return "", false
}

func FuzzDotReader(f *testing.F) {
	for _, s := range []string{articleWire, ".\r\n", "..\r\n.\r\n", "a\rb\r\n.\r\n", "a\r", "x\n.\n", strings.Repeat("y", 40) + "\r\n.\r\n"} {
		f.Add(s, 16)
	}
	f.Fuzz(func(t *testing.T, wire string, size int) {
		if size < 16 || size > 64 {
			size = 16 // a small buffer exercises lines split into pieces
		}
		d := newDotReader(bufio.NewReaderSize(strings.NewReader(wire), size), 1<<20)
		got, err := io.ReadAll(d)
		want, ok := unstuff(wire)
		if !ok {
			if err == nil {
				t.Fatalf("%q: no error without a terminator (got %q)", wire, got)
			}
			return
		}
		if err != nil || string(got) != want || !d.done() {
			t.Fatalf("%q: got %q, %v; want %q", wire, got, err, want)
		}
	})
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"200 ready", "211 3 1 3 local.test", "500", "5000", "20", "abc def", "430 No such article", "599 x", "600 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := parseReply(line)
		if err != nil {
			return
		}
		again, err := parseReply(r.String())
		if r.Code < 100 || r.Code > 599 || err != nil || again != r || !strings.HasPrefix(line, r.String()) {
			t.Fatalf("%q: %+v (String %q)", line, r, r.String())
		}
		if r.Code == 211 {
			parseGroupReply(r.Text) // no panic
		}
	})
}

func FuzzOverviewLine(f *testing.F) {
	f.Add("1\tLines starting with dots\tTest Poster <poster@urlget.test>\tSat, 21 Nov 2026 05:37:35 +0000 (UTC)\t<lf-dots@urlget.test>\t\t553\t6\tXref: urlget.test local.test:1")
	f.Add("2\ts")
	f.Add("x\ty")
	f.Add("-1")
	f.Fuzz(func(t *testing.T, line string) {
		o, err := parseOverLine(line)
		if err != nil {
			return
		}
		if o.Number < 0 || o.Bytes < -1 || o.Lines < -1 {
			t.Fatalf("%q: %+v", line, o)
		}
		p := &plan{host: "h", port: 119, group: "g", gen: &schemes.URL{}}
		e := overviewEntry(p.articlePrefix(), o)
		want := "nntp://h/g/" + strconv.FormatInt(o.Number, 10)
		if e.Locator == nil || e.Locator.String() != want || e.Name != strconv.FormatInt(o.Number, 10) || e.Size != -1 {
			t.Fatalf("%q: entry %+v, want Locator %s", line, e, want)
		}
		if b, ok := e.Extra.Get("bytes"); ok != (o.Bytes >= 0) || ok && b != strconv.FormatInt(o.Bytes, 10) {
			t.Fatalf("%q: Extra bytes %q, overview %d", line, b, o.Bytes)
		}
		if !e.ModTime.IsZero() && e.Precision != time.Second {
			t.Fatalf("%q: precision %v", line, e.Precision)
		}
	})
}

func FuzzActiveLine(f *testing.F) {
	f.Add("local.test 0000000003 0000000001 y")
	f.Add("control 0000000000 0000000001 n")
	f.Add("a 1 2 =b.c")
	f.Add("a b c d")
	f.Fuzz(func(t *testing.T, line string) {
		g, err := parseActiveLine(line)
		if err != nil {
			return
		}
		if g.estimate() < 0 || g.Name == "" || g.Status == "" {
			t.Fatalf("%q: %+v", line, g)
		}
		p := &plan{host: "h", port: 119, gen: &schemes.URL{}}
		e := p.groupEntry(g)
		if e.Kind != schemes.EntryDir || (e.Locator == nil) == validGroup(g.Name) {
			t.Fatalf("%q: entry %+v", line, e)
		}
		if e.Locator != nil && e.Locator.String() != "news:"+g.Name {
			t.Fatalf("%q: Locator %s", line, e.Locator)
		}
	})
}

func FuzzReadBoundedLine(f *testing.F) {
	f.Add("abc\r\n", 4)
	f.Add(strings.Repeat("x", 100)+"\n", 20)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 1 || max > 200 {
			max = 20
		}
		r := bufio.NewReaderSize(bytes.NewReader([]byte(s)), 16)
		line, err := readBoundedLine(r, max)
		if err == nil && (len(line) > max || strings.ContainsAny(line, "\n")) {
			t.Fatalf("%q max %d: %q", s, max, line)
		}
	})
}
