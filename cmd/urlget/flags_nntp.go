package main

import (
	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/nntp"
)

// nntpFlags configure the news, nntp and nntps handler, with the
// command's --max (fetch.Config.Max) for the newest articles listed.
type nntpFlags struct {
	server string
	head   *bool // the command's -I/--head: the article's headers only
	body   bool
	// noPipeline (the command's --no-pipeline) sends each article
	// command after the reply before it, as before pipelining: for
	// comparison (bench/nntp-pipeline.sh), and for a server that
	// mishandles pipelined commands.
	noPipeline *bool
}

func (f *nntpFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.server, "nntp-server", "", "news server `HOST[:PORT]` for news: URLs (default: $NNTPSERVER)")
	fs.BoolVar(&f.body, "body", false, "news/nntp: retrieve only the article's body")
}

// useHead takes the command's -I/--head, which for news is the article's
// header lines (NNTP HEAD): a news article's metadata.
func (f *nntpFlags) useHead(head *bool) { f.head = head }

// usePipeline takes the command's --no-pipeline.
func (f *nntpFlags) usePipeline(noPipeline *bool) { f.noPipeline = noPipeline }

// headFetches says -I retrieves news URLs (their headers) rather than
// describing them by a stat, which NNTP has not.
func (f *nntpFlags) headFetches(loc schemes.Locator) bool {
	switch loc.(type) {
	case *nntp.URL, *nntp.NewsURL:
		return true
	}
	return false
}

func (f *nntpFlags) apply(cfg *fetch.Config) error {
	h := &nntp.Handler{Server: f.server, Max: cfg.Max}
	if f.noPipeline != nil && *f.noPipeline {
		h.Window = 1
	}
	if h.Max == 0 {
		h.Max = nntp.DefaultMax
	}
	head := f.head != nil && *f.head
	switch {
	case head && !f.body:
		h.Part = nntp.PartHead
	case f.body && !head:
		h.Part = nntp.PartBody
	} // both or neither: the whole article
	cfg.NNTP = h
	return nil
}
