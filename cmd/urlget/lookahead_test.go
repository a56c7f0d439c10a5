package main

import (
	"fmt"
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
		{"not a pipelining scheme", []string{"http://h/", "news:a@x"}, 0, nil},
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
			if _, kept := l.locs[tt.i]; kept {
				t.Error("the URL fetched stays parsed in the window")
			}
		})
	}
}
