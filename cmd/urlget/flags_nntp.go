package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/schemes/wais"
)

// nntpFlags configure the news, nntp and nntps handler, and the wais
// handler's --max (one flag: the most entries a listing asks for).
type nntpFlags struct {
	server     string
	max        int
	head, body bool
	fs         *pflag.FlagSet // to tell a --max given from the default
}

func (f *nntpFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.server, "nntp-server", "", "news server `HOST[:PORT]` for news: URLs (default: $NNTPSERVER)")
	f.fs = fs
	fs.IntVar(&f.max, "max", nntp.DefaultMax, "list the newest `N` articles of a news group; wais: ask a search for N hits (default there 40)")
	fs.BoolVar(&f.head, "head", false, "news/nntp: retrieve only the article's headers")
	fs.BoolVar(&f.body, "body", false, "news/nntp: retrieve only the article's body")
}

func (f *nntpFlags) apply(cfg *fetch.Config) error {
	if f.max < 1 {
		return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "max",
			Msg: fmt.Sprintf("--max %d: want a positive number of articles", f.max)}
	}
	h := &nntp.Handler{Server: f.server, Max: f.max, RequireTLS: cfg.RequireTLS}
	switch {
	case f.head && !f.body:
		h.Part = nntp.PartHead
	case f.body && !f.head:
		h.Part = nntp.PartBody
	} // both or neither: the whole article
	cfg.NNTP = h
	if f.fs != nil && f.fs.Changed("max") {
		cfg.WAIS = &wais.Handler{Max: f.max}
	}
	return nil
}
