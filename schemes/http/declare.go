package http

import (
	"net/http"
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{
	{Name: "http", Port: 80, HostPrefixes: []string{""}}, // curl's guess for any host no other scheme claims
	{Name: "https", Of: "http", TLS: true, Port: 443},
}

// Declaration declares http (port 80) and https (443), with curl's
// request options, so that a curl command line works as it is: -L is
// accepted and changes nothing (redirects are followed); -f (Handler.Fail)
// and fail-with-body (Handler.FailWithBody) say what becomes of an error
// status's page that a request asks for (schemes.Request.ErrorPages), as
// curl's command asks for every one.
func Declaration() schemes.Declaration {
	both := []string{"http", "https"}
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "location", Short: "L", Kind: schemes.Bool, Schemes: both,
				Help: "http: follow redirects (urlget always does, up to the redirect limit; accepted for curl's command lines)"},
			{Name: "fail", Short: "f", Kind: schemes.Bool, Schemes: both,
				Help: "http: fail on an error status (400 and up) without writing its page (exit 22); without it the page is written and the transfer succeeds, as with curl"},
			{Name: "fail-with-body", Kind: schemes.Bool, Schemes: both,
				Help: "http: on an error status, write the error page, then fail (exit 22)"},
			{Name: "header", Short: "H", Kind: schemes.Strings, Schemes: both,
				Help: "http: send the header field `\"Name: value\"` (\"Name:\" removes urlget's own, \"Name;\" sends it empty); repeat"},
			{Name: "user-agent", Short: "A", Kind: schemes.String, Schemes: both,
				Help: "http: send User-Agent `NAME` instead of urlget's"},
			{Name: "referer", Short: "e", Kind: schemes.String, Schemes: both,
				Help: "http: send Referer `URL`"},
			{Name: "compressed", Kind: schemes.Bool, Schemes: both,
				Help: "http: ask for a compressed body (gzip, deflate, br, zstd) and decode it"},
		},
		New: newSchemes,
	}
}

// newSchemes builds the handler from the option values.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	h := &Handler{UserAgent: v.String("user-agent"), Referer: v.String("referer"),
		Decode: v.Bool("compressed"), FailWithBody: v.Bool("fail-with-body"), Fail: v.Bool("fail"), words: v.Words()}
	if fields := v.Strings("header"); len(fields) > 0 {
		h.Header = http.Header{}
		for _, arg := range fields {
			if err := AddHeader(h.Header, arg); err != nil {
				return nil, v.UsageError("header", v.Name("header"), err)
			}
		}
	}
	return Schemes(h), nil
}
