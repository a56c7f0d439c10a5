package main

import "testing"

func TestProsperoFlags(t *testing.T) {
	if h := configFor(t).Prospero; h != nil {
		t.Errorf("no flag: handler %+v, want the defaults (nil)", h)
	}
	if h := configFor(t, "--prospero-local").Prospero; h == nil || !h.Local {
		t.Errorf("--prospero-local: handler %+v", h)
	}
}
