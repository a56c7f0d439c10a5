package mirror

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// deepChain is a top directory whose links go n directories deep,
// "l0/l1/…", each holding one file, with fan directories "w0"… beside
// l0.
func deepChain(n, fan int) *node {
	top := dirNode("")
	d := top
	for i := range n {
		next := dirNode(fmt.Sprintf("l%d", i), fileNode("f", "f"))
		d.children = append(d.children, next)
		d = next
	}
	for i := range fan {
		top.children = append(top.children, dirNode(fmt.Sprintf("w%d", i)))
	}
	return top
}

// TestSummaryBounds: a walk stopped by a bound says which, its value,
// whether it was the default, and how much it left out — in the Summary,
// its JSON, and each event the bound made — whether the run fails
// (listings, entries, visited) or not (depth).
func TestSummaryBounds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tree    *node
		crawls  bool
		opt     Options
		visited int // maxVisited, 0 for the usual
		want    []Bound
		fails   bool
	}{
		{"crawl at the default depth", deepChain(DefaultCrawlDepth+3, 0), true, Options{}, 0,
			[]Bound{{Name: BoundDepth, Limit: DefaultCrawlDepth, Default: true, Left: 1}}, false},
		{"depth asked for", deepChain(5, 0), false, Options{MaxDepth: 2}, 0,
			[]Bound{{Name: BoundDepth, Limit: 2, Left: 1}}, false},
		{"listings", deepChain(1, 4), false, Options{MaxDepth: -1, MaxListings: 2}, 0,
			[]Bound{{Name: BoundListings, Limit: 2, Left: 4}}, true},
		{"entries", dirNode("", manyFiles("d", 30)), false, Options{MaxEntries: 10}, 0,
			[]Bound{{Name: BoundEntries, Limit: 10, Left: 1}}, true},
		{"visited", dirsOfOneFile(5), false, Options{Parallel: 1}, 3,
			[]Bound{{Name: BoundVisited, Limit: 3, Default: true, Left: 3}}, true},
		{"no bound met", deepChain(3, 2), true, Options{}, 0, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.visited > 0 {
				defer func(n int) { maxVisited = n }(maxVisited)
				maxVisited = tc.visited
			}
			h := newTree(tc.tree)
			if tc.crawls {
				h.caps = schemes.Crawls
			}
			sum, ev, err := run(t, h, t.TempDir(), tc.opt)
			if (err != nil) != tc.fails {
				t.Fatalf("err %v, want failure %v\n%s", err, tc.fails, ev)
			}
			if !slices.Equal(sum.Bounds, tc.want) {
				t.Fatalf("bounds %+v, want %+v\n%s", sum.Bounds, tc.want, ev)
			}
			b, _ := json.Marshal(sum)
			if tc.want != nil && !strings.Contains(string(b), `"bounds":[{"bound":"`+tc.want[0].Name+`"`) {
				t.Errorf("JSON %s has no bounds", b)
			}
			if tc.want == nil && strings.Contains(string(b), "bounds") {
				t.Errorf("JSON %s has bounds", b)
			}
			tagged := 0
			for _, e := range ev.all {
				if e.Bound != "" {
					tagged++
				}
			}
			if tc.want != nil && tagged != tc.want[0].Left || tc.want == nil && tagged != 0 {
				t.Errorf("%d events name a bound\n%s", tagged, ev)
			}
		})
	}
}

func TestBoundString(t *testing.T) {
	for _, tc := range []struct {
		b    Bound
		want string
	}{
		{Bound{Name: BoundDepth, Limit: 10, Default: true, Left: 37}, "depth 10 (the default): 37 links not followed"},
		{Bound{Name: BoundEntries, Limit: 5, Left: 1}, "entries 5: 1 listings cut short"},
	} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.b, got, tc.want)
		}
	}
}
