package nntp

import (
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{
	{Name: "news", Port: 119, OwnPorts: []int{563}, Opaque: true},
	// news: URLs name no host: a host is reached with nntp:.
	{Name: "nntp", Port: 119, HostPrefixes: []string{"news.", "nntp."}},
	{Name: "nntps", Of: "nntp", TLS: true, Port: 563},
}

// Declaration declares news (RFC 1738 §3.6: news:group and news:id, no
// "//"), nntp (port 119) and nntps (NNTP over TLS, port 563, which a
// news: URL may reach through a server named on port 563 too). It reads
// OptionMax (the newest articles a group lists), OptionHead (HEAD: the
// article's header lines are a news URL's metadata) and OptionNoPipeline
// (each command after the reply before it: for comparison, and for a
// server that mishandles pipelined commands).
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "nntp-server", Kind: schemes.String, Schemes: []string{"news"},
				Help: "news server `HOST[:PORT]` for news: URLs (default: $NNTPSERVER)"},
			{Name: "body", Kind: schemes.Bool, Schemes: []string{"news", "nntp", "nntps"}, Body: true,
				Help: "news/nntp: retrieve only the article's body"},
		},
		Uses: []string{schemes.OptionMax, schemes.OptionHead, schemes.OptionNoPipeline},
		New:  newSchemes,
	}
}

// newSchemes builds the handler from the option values: -I and --body
// together, or neither, retrieve the whole article.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	h := &Handler{Server: v.String("nntp-server"), Max: v.Int(schemes.OptionMax), words: v.Words()}
	if v.Bool(schemes.OptionNoPipeline) {
		h.Window = 1
	}
	if h.Max == 0 {
		h.Max = DefaultMax
	}
	head, body := v.Bool(schemes.OptionHead), v.Bool("body")
	switch {
	case head && !body:
		h.Part = PartHead
	case body && !head:
		h.Part = PartBody
	}
	return Schemes(h), nil
}
