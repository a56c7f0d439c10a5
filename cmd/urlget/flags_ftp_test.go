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
	if err := fs.Parse([]string{"--ftp-anon-password", "me@example.org", "--ftp-ssl", "--netrc-file", "/x/netrc"}); err != nil {
		t.Fatal(err)
	}
	var cfg fetch.Config
	if err := f.apply(&cfg); err != nil {
		t.Fatal(err)
	}
	h := cfg.FTP
	if h == nil || h.AnonPassword != "me@example.org" || !h.ExplicitTLS || h.Netrc != "/x/netrc" {
		t.Errorf("handler %+v", h)
	}
	// --ssl-reqd, a flag of all TLS-capable schemes, means AUTH TLS for ftp.
	cfg = configFor(t, "--ssl-reqd")
	if !cfg.FTP.ExplicitTLS || !cfg.RequireTLS {
		t.Errorf("--ssl-reqd: %+v", cfg.FTP)
	}
}
