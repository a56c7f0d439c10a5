package main

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/nntp"
)

func TestNNTPFlags(t *testing.T) {
	// want holds the Handler's settings (a Handler itself holds a mutex).
	type want struct {
		Server     string
		Max        int
		Part       nntp.Part
		RequireTLS bool
	}
	for _, tc := range []struct {
		args []string
		want want
	}{
		{nil, want{Max: nntp.DefaultMax}},
		{[]string{"--nntp-server", "news.example:1119", "--max", "7", "--head"},
			want{Server: "news.example:1119", Max: 7, Part: nntp.PartHead}},
		{[]string{"--body"}, want{Max: nntp.DefaultMax, Part: nntp.PartBody}},
		{[]string{"--head", "--body"}, want{Max: nntp.DefaultMax}},
		{[]string{"--ssl-reqd"}, want{Max: nntp.DefaultMax, RequireTLS: true}},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.Bool("ssl-reqd", false, "") // defined by another flag set
		f := &nntpFlags{}
		f.add(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		var cfg fetch.Config
		if err := f.apply(&cfg); err != nil {
			t.Fatal(err)
		}
		h := cfg.NNTP
		if h == nil || h.Server != tc.want.Server || h.Max != tc.want.Max || h.Part != tc.want.Part || h.RequireTLS != tc.want.RequireTLS {
			t.Errorf("%v: handler %+v", tc.args, h)
		}
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f := &nntpFlags{}
	f.add(fs)
	fs.Parse([]string{"--max", "0"})
	if err := f.apply(&fetch.Config{}); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("--max 0: %v", err)
	}
}
