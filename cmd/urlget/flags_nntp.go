package main

import (
	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes/nntp"
)

// nntpFlags configure the news, nntp and nntps handler, with the
// command's --max (fetch.Config.Max) for the newest articles listed.
type nntpFlags struct {
	server     string
	head, body bool
}

func (f *nntpFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.server, "nntp-server", "", "news server `HOST[:PORT]` for news: URLs (default: $NNTPSERVER)")
	fs.BoolVar(&f.head, "head", false, "news/nntp: retrieve only the article's headers")
	fs.BoolVar(&f.body, "body", false, "news/nntp: retrieve only the article's body")
}

func (f *nntpFlags) apply(cfg *fetch.Config) error {
	h := &nntp.Handler{Server: f.server, Max: cfg.Max}
	if h.Max == 0 {
		h.Max = nntp.DefaultMax
	}
	switch {
	case f.head && !f.body:
		h.Part = nntp.PartHead
	case f.body && !f.head:
		h.Part = nntp.PartBody
	} // both or neither: the whole article
	cfg.NNTP = h
	return nil
}
