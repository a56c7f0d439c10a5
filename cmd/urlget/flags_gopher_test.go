package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

func TestGopherFlags(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "form.json")
	os.WriteFile(js, []byte(`{"What is your name?": "Alice", "Comments?": ["one", "two"], "Subscribe?": false, "3": 7}`), 0o644)
	up := filepath.Join(dir, "up.txt")
	os.WriteFile(up, []byte("file text\n"), 0o644)

	f := &gopherFlags{}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f.add(fs)
	if err := fs.Parse([]string{"--search", "", "--views", "--form-json", js, "--form", "2=pw", "--form", "File?=@" + up}); err != nil {
		t.Fatal(err)
	}
	var cfg fetch.Config
	if err := f.apply(&cfg); err != nil {
		t.Fatal(err)
	}
	h := cfg.Gopher
	if h == nil || h.Search == nil || *h.Search != "" || !h.Views || h.Unstuff {
		t.Fatalf("handler %+v", h)
	}
	want := map[string]string{"What is your name?": "Alice", "Comments?": "one\ntwo", "Subscribe?": "0", "3": "7", "2": "pw", "File?": "file text\n"}
	for k, v := range want {
		if h.Form[k] != v {
			t.Errorf("%s = %q, want %q", k, h.Form[k], v)
		}
	}

	// Without --search the handler asks instead of searching for "".
	f = &gopherFlags{}
	fs = pflag.NewFlagSet("t", pflag.ContinueOnError)
	f.add(fs)
	fs.Parse(nil)
	cfg = fetch.Config{}
	if err := f.apply(&cfg); err != nil || cfg.Gopher.Search != nil || cfg.Gopher.Form != nil {
		t.Errorf("defaults: %+v %v", cfg.Gopher, err)
	}

	for _, args := range [][]string{{"--form", "novalue"}, {"--form-json", filepath.Join(dir, "missing")}, {"--form", "x=@" + filepath.Join(dir, "missing")}} {
		f = &gopherFlags{}
		fs = pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.add(fs)
		fs.Parse(args)
		if err := f.apply(&fetch.Config{}); schemes.KindOf(err) != schemes.KindUsage {
			t.Errorf("%q: %v, want usage error", args, err)
		}
	}
}
