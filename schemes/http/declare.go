package http

import (
	"fmt"
	"io"
	"net/http"
	"os"
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

// The options that make what a request sends (send.go, and see
// newSending).
const (
	optionMethod = "request" // the method word (curl's -X)
	optionData   = dataText  // a body of URL-encoded fields (curl's -d family)
	optionForm   = formField // a multipart/form-data body (curl's -F)
)

// Declaration declares http (port 80) and https (443), with curl's
// request options, so that a curl command line works as it is: -L is
// accepted and changes nothing (redirects are followed); -f (Handler.Fail)
// and fail-with-body (Handler.FailWithBody) say what becomes of an error
// status's page that a request asks for (schemes.Request.ErrorPages), as
// curl's command asks for every one. -X, -d and -F (form-data: gopher's
// form is its +ASK answers) make the requests curl makes of them; those
// options submit (schemes.Option.Submits), so a crawl or a gateway
// refuses them.
func Declaration() schemes.Declaration {
	both := []string{"http", "https"}
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Uses:  []string{schemes.OptionHead, schemes.OptionNoPipeline},
		Check: checkSending,
		Options: append([]schemes.Option{
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
		}, sendingOptions(both)...),
		New: newSchemes,
	}
}

// sendingOptions are the options of what a request sends: curl's -X,
// -d and its variants, -F and --form-string, --post301/302/303.
func sendingOptions(both []string) []schemes.Option {
	opts := []schemes.Option{
		{Name: optionMethod, Short: "X", Kind: schemes.String, Schemes: both, OnlyNamed: true, Submits: true,
			Help: "http: send `METHOD` as the method word (GET, or POST with -d or -F, otherwise), after a redirect too"},
		{Name: optionData, Short: "d", Kind: schemes.Sequence, Schemes: both, OnlyNamed: true, Submits: true,
			Help: "http: POST `DATA` as application/x-www-form-urlencoded (@FILE, @- stdin: its text without CR and LF); repeat: joined with &",
			Variants: []schemes.Variant{
				{Name: dataASCII, Help: "http: `DATA` as -d"},
				{Name: dataBinary, Help: "http: `DATA` as -d, but @FILE is sent as it is"},
				{Name: dataRaw, Help: "http: `DATA` as -d, a leading @ included (no file)"},
				{Name: dataURLEncode, Help: "http: as -d, `[NAME]=CONTENT` or [NAME]@FILE with the content URL-encoded (no = or @: all of it)"},
			}},
		{Name: optionForm, Short: "F", Kind: schemes.Sequence, Schemes: both, OnlyNamed: true, Submits: true,
			Help: "http: POST a multipart/form-data field `NAME=VALUE` (curl's -F; @FILE uploads a file, <FILE its text, ;type=, ;filename=); repeat",
			Variants: []schemes.Variant{
				{Name: formString, Help: "http: a form field `NAME=VALUE` as -F, the value as it is (no @, < or ;type=)"},
			}},
	}
	for _, status := range []int{301, 302, 303} {
		opts = append(opts, schemes.Option{Name: keepOption(status), Kind: schemes.Bool, Schemes: both, OnlyNamed: true, Submits: true,
			Help: fmt.Sprintf("http: after a %d redirect, send the POST and its body again (otherwise it turns into a GET without it)", status)})
	}
	return opts
}

// newSchemes builds the handler from the option values; @- in a value
// reads the process's stdin.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	h, err := newHandler(v, os.Stdin)
	if err != nil {
		return nil, err
	}
	return Schemes(h), nil
}

// newHandler is the Handler the option values make, @- reading stdin.
func newHandler(v schemes.Values, stdin io.Reader) (*Handler, error) {
	h := &Handler{UserAgent: v.String("user-agent"), Referer: v.String("referer"),
		Decode: v.Bool("compressed"), FailWithBody: v.Bool("fail-with-body"), Fail: v.Bool("fail"), words: v.Words()}
	if v.Bool(schemes.OptionNoPipeline) {
		h.Window = 1
	}
	if fields := v.Strings("header"); len(fields) > 0 {
		h.Header = http.Header{}
		for _, arg := range fields {
			if err := AddHeader(h.Header, arg); err != nil {
				return nil, v.UsageError("header", v.Name("header"), err)
			}
		}
	}
	if err := h.setSending(v, stdin); err != nil {
		return nil, err
	}
	return h, nil
}
