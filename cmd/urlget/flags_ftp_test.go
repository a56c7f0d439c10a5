package main

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
)

func TestFTPFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f := &ftpFlags{}
	f.add(fs)
	if err := fs.Parse([]string{"--ftp-anon-password", "me@example.org", "--ftp-ssl", "--long", "--netrc-file", "/x/netrc"}); err != nil {
		t.Fatal(err)
	}
	var cfg fetch.Config
	if err := f.apply(&cfg); err != nil {
		t.Fatal(err)
	}
	h := cfg.FTP
	if h == nil || h.AnonPassword != "me@example.org" || !h.ExplicitTLS || !h.Long || h.Netrc != "/x/netrc" {
		t.Errorf("handler %+v", h)
	}
	// --ssl-reqd belongs to another flag set; ftp reads it when present.
	fs = pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.Bool("ssl-reqd", false, "")
	f = &ftpFlags{}
	f.add(fs)
	fs.Parse([]string{"--ssl-reqd"})
	if err := f.apply(&cfg); err != nil || !cfg.FTP.ExplicitTLS {
		t.Errorf("--ssl-reqd: %+v, %v", cfg.FTP, err)
	}
}
