package main

import (
	"testing"
	"time"
)

func TestCacheMaxAgeFlag(t *testing.T) {
	for _, c := range []struct {
		in          string
		docs, lists time.Duration
		bad         bool
	}{
		{in: "5m", docs: 5 * time.Minute, lists: 5 * time.Minute},
		{in: "0", docs: -1, lists: -1},
		{in: "documents=10m,listings=30s", docs: 10 * time.Minute, lists: 30 * time.Second},
		{in: "listings=0", lists: -1},
		{in: "documents=1h", docs: time.Hour},
		{in: "-1s", bad: true},
		{in: "1500ms", bad: true},
		{in: "x", bad: true},
		{in: "pages=1m", bad: true},
		{in: "documents=", bad: true},
	} {
		var a cacheMaxAge
		err := a.Set(c.in)
		if c.bad != (err != nil) || !c.bad && (a.documents != c.docs || a.listings != c.lists || a.String() != c.in) {
			t.Errorf("%q: %+v, %v", c.in, a, err)
		}
	}
}
