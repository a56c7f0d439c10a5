package ftp

import "testing"

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
