package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

func TestFTPFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f := &ftpFlags{}
	f.add(fs)
	if err := fs.Parse([]string{"--ftp-anon-password", "me@example.org", "--ftp-ssl"}); err != nil {
		t.Fatal(err)
	}
	var cfg fetch.Config
	if err := f.apply(&cfg); err != nil {
		t.Fatal(err)
	}
	h := cfg.FTP
	if h == nil || h.AnonPassword != "me@example.org" || !h.ExplicitTLS {
		t.Errorf("handler %+v", h)
	}
	// --ssl-reqd is the fetch Client's policy (Request.RequireTLS), not a
	// handler setting: ftp's own --ftp-ssl stays off.
	if cfg = configFor(t, "--ssl-reqd"); cfg.FTP.ExplicitTLS {
		t.Errorf("--ssl-reqd: %+v", cfg.FTP)
	}
}

// TestFTPTypeFlags: --ascii and --binary set the TYPE of URLs without
// ";type=" (the handler's DefaultType); giving both is a usage error.
func TestFTPTypeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want byte
	}{
		{nil, 0},
		{[]string{"--ascii"}, 'a'},
		{[]string{"--binary"}, 'i'},
	} {
		if got := configFor(t, tc.args...).FTP.DefaultType; got != tc.want {
			t.Errorf("%v: DefaultType %q, want %q", tc.args, got, tc.want)
		}
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f := &ftpFlags{}
	f.add(fs)
	if err := fs.Parse([]string{"--ascii", "--binary"}); err != nil {
		t.Fatal(err)
	}
	err := f.apply(&fetch.Config{})
	if schemes.KindOf(err) != schemes.KindUsage || !strings.Contains(err.Error(), "--ascii and --binary") {
		t.Errorf("--ascii --binary: %v", err)
	}
}
