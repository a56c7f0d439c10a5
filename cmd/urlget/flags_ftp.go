package main

import (
	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/ftp"
)

// ftpFlags configure the ftp and ftps handler. The anonymous password
// falls back to $URLGET_EMAIL and $EMAIL in the handler itself, so library
// users get the same chain. Logins (-u, --netrc) and --ssl-reqd are the
// fetch Client's policy, for every scheme (credentials.go, retrieve.go).
type ftpFlags struct {
	anonPass      string
	ssl           bool
	ascii, binary bool
	// noPipeline (the command's --no-pipeline) sends each file's EPSV
	// in its turn rather than with the RETR before it.
	noPipeline *bool
}

// usePipeline takes the command's --no-pipeline.
func (f *ftpFlags) usePipeline(noPipeline *bool) { f.noPipeline = noPipeline }

func (f *ftpFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.anonPass, "ftp-anon-password", "",
		"ftp: password of anonymous logins, your mail address (default $URLGET_EMAIL, $EMAIL, then user@host)")
	fs.BoolVar(&f.ssl, "ftp-ssl", false, "ftp: AUTH TLS on the control connection and PROT P for data; fail if the server refuses")
	fs.BoolVar(&f.ascii, "ascii", false, "ftp: fetch files whose URL has no ;type= as text (TYPE A), instead of guessing from the name")
	fs.BoolVar(&f.binary, "binary", false, "ftp: fetch files whose URL has no ;type= as binary (TYPE I), instead of guessing from the name")
}

func (f *ftpFlags) apply(cfg *fetch.Config) error {
	h := &ftp.Handler{AnonPassword: f.anonPass, ExplicitTLS: f.ssl, NoPipeline: f.noPipeline != nil && *f.noPipeline}
	switch {
	case f.ascii && f.binary:
		return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "ascii",
			Msg: "--ascii and --binary: give one of them (a URL's ;type=a or ;type=i chooses per file)"}
	case f.ascii:
		h.DefaultType = 'a'
	case f.binary:
		h.DefaultType = 'i'
	}
	cfg.FTP = h
	return nil
}
