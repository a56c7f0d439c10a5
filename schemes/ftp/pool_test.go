package ftp

import (
	"fmt"
	"testing"
)

// TestPoolPrefersTheDirectory: of the idle connections, get hands out the
// one that needs the fewest CWD to reach the directory asked for, the
// most recent among equals.
func TestPoolPrefersTheDirectory(t *testing.T) {
	k := poolKey{host: "h"}
	var p pool
	p.idle = map[poolKey][]*ctrl{k: {
		{at: []string{"a"}},
		{at: []string{"b", "c"}},
		{at: nil},
		{at: []string{"d"}},
	}}
	for _, tc := range []struct {
		dir  []string
		want string // the chosen connection's directory
	}{
		{[]string{"b", "c"}, "[b c]"}, // already there
		{[]string{"a", "x"}, "[a]"},   // one CWD down
		{[]string{"q"}, "[]"},         // from the login directory: one CWD
		{[]string{"z"}, "[d]"},        // the last two cost the same: the most recent
	} {
		c := p.get(k, tc.dir)
		if c == nil {
			t.Fatalf("%v: no connection", tc.dir)
		}
		if got := fmt.Sprint(c.at); got != tc.want {
			t.Errorf("for %v got the connection at %s, want %s", tc.dir, got, tc.want)
		}
	}
	if p.get(k, nil) != nil {
		t.Error("a connection out of an empty pool")
	}
}

// TestCWDCost counts what chdir sends.
func TestCWDCost(t *testing.T) {
	for _, tc := range []struct {
		at, dir []string
		want    int
	}{
		{nil, nil, 0},
		{nil, []string{"a", "b"}, 2},
		{[]string{"a"}, []string{"a", "b"}, 1},
		{[]string{"a", "b"}, []string{"a"}, 2},
		{[]string{"x"}, []string{"a", "b"}, 3},
	} {
		if got := cwdCost(tc.at, tc.dir); got != tc.want {
			t.Errorf("cwdCost(%v, %v) = %d, want %d", tc.at, tc.dir, got, tc.want)
		}
	}
}
