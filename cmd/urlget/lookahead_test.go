package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
)

// TestLookahead: the Request of a URL whose scheme pipelines (news) names
// the URLs after it, at most fetch.MaxNext, up to one that does not
// parse; a URL of another scheme names none.
func TestLookahead(t *testing.T) {
	many := []string{}
	for i := range 2 * fetch.MaxNext {
		many = append(many, fmt.Sprintf("news:a%d@x", i))
	}
	for _, tt := range []struct {
		name string
		urls []string
		i    int
		want []string
	}{
		{"news, then others", []string{"news:a@x", "nntp://h/g/1", "http://h/"}, 0, []string{"nntp://h/g/1", "http://h/"}},
		{"the last", []string{"news:a@x", "news:b@x"}, 1, nil},
		{"not a pipelining scheme", []string{"gopher://h/", "news:a@x"}, 0, nil},
		{"up to one that does not parse", []string{"news:a@x", "news:b@x", "news:", "news:c@x"}, 0, []string{"news:b@x"}},
		{"a window", many, 10, many[11 : 11+fetch.MaxNext]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newLookahead(&fetch.Client{}, tt.urls)
			var got []string
			for _, loc := range l.next(tt.i) {
				got = append(got, loc.String())
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("next %q, want %q", got, tt.want)
			}
			if l.locs[tt.i] != nil {
				t.Error("the URL fetched stays parsed in the window")
			}
		})
	}
}

// TestParallelAhead: a -Z run's URL looks ahead at the next one when it
// can without waiting — the command line's, or the next line of a list in
// a regular file, which is then given in its turn, once — and not at a
// line of stdin, which a writer may not have written yet.
func TestParallelAhead(t *testing.T) {
	reg, err := fetch.NewRegistry(fetch.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := &fetch.Client{Registry: reg}
	list := filepath.Join(t.TempDir(), "list")
	os.WriteFile(list, []byte("ftp://h/a\n\nftp://h/b\ngopher://h/c\n"), 0o644)
	o, err := parseFlags([]string{"-Z", "-i", list, "ftp://h/0"}, strings.NewReader(""), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	src, err := o.parallelURLs(c, strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	defer src.close()
	var order, aheads []string
	for {
		raw, _, ok := src.next()
		if !ok {
			break
		}
		order = append(order, raw)
		a := "-"
		if next := src.ahead(c); len(next) == 1 {
			a = next[0].String()
		}
		aheads = append(aheads, a)
	}
	// gopher does not pipeline: nothing is readied for it.
	if fmt.Sprint(order) != "[ftp://h/0 ftp://h/a ftp://h/b gopher://h/c]" || fmt.Sprint(aheads) != "[ftp://h/a ftp://h/b - -]" {
		t.Errorf("given %q, ahead %q", order, aheads)
	}
	stdin := strings.NewReader("ftp://h/a\nftp://h/b\n")
	if o, err = parseFlags([]string{"-Z", "-i", "-"}, stdin, io.Discard); err != nil {
		t.Fatal(err)
	}
	src, err = o.parallelURLs(c, stdin)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _, _ := src.next(); raw != "ftp://h/a" || src.ahead(c) != nil {
		t.Errorf("stdin: %q, ahead %v; want no look-ahead", raw, src.ahead(c))
	}
}
