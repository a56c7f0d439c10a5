package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/gopher"
)

func TestGopherFlags(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "form.json")
	os.WriteFile(js, []byte(`{"What is your name?": "Alice", "Comments?": ["one", "two"], "Subscribe?": false, "3": 7}`), 0o644)
	up := filepath.Join(dir, "up.txt")
	os.WriteFile(up, []byte("file text\n"), 0o644)
	h := handlerFor[*gopher.Handler](t, "gopher", "--search", "", "--views", "--form-json", js, "--form", "2=pw", "--form", "File?=@"+up)
	if h.Search == nil || *h.Search != "" || !h.Views || h.Unstuff {
		t.Fatalf("handler %+v", h)
	}
	want := map[string]string{"What is your name?": "Alice", "Comments?": "one\ntwo", "Subscribe?": "0", "3": "7", "2": "pw", "File?": "file text\n"}
	for k, v := range want {
		if h.Form[k] != v {
			t.Errorf("%s = %q, want %q", k, h.Form[k], v)
		}
	}
	// Without --search the handler asks instead of searching for "".
	if h := handlerFor[*gopher.Handler](t, "gophers"); h.Search != nil || h.Form != nil {
		t.Errorf("defaults: %+v", h)
	}
	if h := handlerFor[*gopher.Handler](t, "gopher", "--gopher-unstuff"); !h.Unstuff {
		t.Errorf("--gopher-unstuff: %+v", h)
	}
	for _, args := range [][]string{{"--form", "novalue"}, {"--form-json", filepath.Join(dir, "missing")}, {"--form", "x=@" + filepath.Join(dir, "missing")}} {
		if _, err := registryFor(t, args...); schemes.KindOf(err) != schemes.KindUsage {
			t.Errorf("%q: %v, want usage error", args, err)
		}
	}
}
