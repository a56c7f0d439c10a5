package ftp

import (
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{
	{Name: "ftp", Port: 21, OwnPorts: []int{20}, HostPrefixes: []string{"ftp."}},
	{Name: "ftps", Of: "ftp", TLS: true, Port: 990, OwnPorts: []int{989}},
}

// Declaration declares ftp (port 21; 20 is its data port) and ftps, FTP
// over implicit TLS (port 990, data 989), with the handler's options.
// OptionNoPipeline sends each file's EPSV in its turn rather than with
// the RETR before it, and every command after the reply to the one
// before rather than in batches (pipeline.go).
func Declaration() schemes.Declaration {
	both := []string{"ftp", "ftps"}
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "ftp-anon-password", Kind: schemes.String, Schemes: both,
				Help: "ftp: password of anonymous logins, your mail address (default $URLGET_EMAIL, $EMAIL, then user@host)"},
			{Name: "ftp-ssl", Kind: schemes.Bool, Schemes: both,
				Help: "ftp: AUTH TLS on the control connection and PROT P for data; fail if the server refuses"},
			{Name: "ascii", Kind: schemes.Bool, Schemes: both, Body: true,
				Help: "ftp: fetch files whose URL has no ;type= as text (TYPE A), instead of guessing from the name"},
			{Name: "binary", Kind: schemes.Bool, Schemes: both, Body: true,
				Help: "ftp: fetch files whose URL has no ;type= as binary (TYPE I), instead of guessing from the name"},
		},
		Uses: []string{schemes.OptionNoPipeline},
		New:  newSchemes,
	}
}

// newSchemes builds the handler from the option values. The anonymous
// password falls back to $URLGET_EMAIL and $EMAIL in the handler itself.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	h := &Handler{AnonPassword: v.String("ftp-anon-password"), ExplicitTLS: v.Bool("ftp-ssl"),
		NoPipeline: v.Bool(schemes.OptionNoPipeline), words: v.Words()}
	switch {
	case v.Bool("ascii") && v.Bool("binary"):
		return nil, v.UsageError("ascii", v.Name("ascii")+" and "+v.Name("binary")+
			": give one of them (a URL's ;type=a or ;type=i chooses per file)", nil)
	case v.Bool("ascii"):
		h.DefaultType = 'a'
	case v.Bool("binary"):
		h.DefaultType = 'i'
	}
	return Schemes(h), nil
}
