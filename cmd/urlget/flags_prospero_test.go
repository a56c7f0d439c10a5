package main

import (
	"testing"

	"github.com/urlget/urlget/schemes/prospero"
)

func TestProsperoFlags(t *testing.T) {
	if h := handlerFor[*prospero.Handler](t, "prospero"); h.Local {
		t.Errorf("no flag: handler %+v, want the defaults", h)
	}
	if h := handlerFor[*prospero.Handler](t, "prospero", "--prospero-local"); !h.Local {
		t.Errorf("--prospero-local: handler %+v", h)
	}
}
