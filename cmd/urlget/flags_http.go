package main

import (
	"net/http"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	httpscheme "github.com/urlget/urlget/schemes/http"
)

// httpFlags configure the http and https handler with curl's request
// flags, so that a curl command line works as it is.
type httpFlags struct {
	location     bool // -L: accepted; redirects are followed anyway
	fail         bool // -f: accepted; an error status fails anyway
	failWithBody bool
	headers      []string
	userAgent    string
	referer      string
	compressed   bool
}

func (f *httpFlags) add(fs *pflag.FlagSet) {
	fs.BoolVarP(&f.location, "location", "L", false, "http: follow redirects (urlget always does, up to --max-redirs; accepted for curl's command lines)")
	fs.BoolVarP(&f.fail, "fail", "f", false, "http: fail on an error status (>= 400) without writing the error page (urlget always does; accepted for curl's command lines)")
	fs.BoolVar(&f.failWithBody, "fail-with-body", false, "http: on an error status, write the error page, then fail")
	fs.StringArrayVarP(&f.headers, "header", "H", nil, "http: send the header field `\"Name: value\"` (\"Name:\" removes urlget's own, \"Name;\" sends it empty); repeat")
	fs.StringVarP(&f.userAgent, "user-agent", "A", "", "http: send User-Agent `NAME` instead of urlget's")
	fs.StringVarP(&f.referer, "referer", "e", "", "http: send Referer `URL`")
	fs.BoolVar(&f.compressed, "compressed", false, "http: ask for a compressed body (gzip, deflate, br, zstd) and decode it")
}

func (f *httpFlags) apply(cfg *fetch.Config) error {
	h := &httpscheme.Handler{UserAgent: f.userAgent, Referer: f.referer, Decode: f.compressed, FailWithBody: f.failWithBody}
	if len(f.headers) > 0 {
		h.Header = http.Header{}
		for _, arg := range f.headers {
			if err := httpscheme.AddHeader(h.Header, arg); err != nil {
				return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "header", Msg: "-H", Err: err}
			}
		}
	}
	cfg.HTTP = h
	return nil
}
