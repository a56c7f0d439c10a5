package main

import (
	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes/prospero"
)

// prosperoFlags configure the prospero handler.
type prosperoFlags struct {
	local bool
}

func (f *prosperoFlags) add(fs *pflag.FlagSet) {
	fs.BoolVar(&f.local, "prospero-local", false,
		"prospero: use the LOCAL access method (a file: URL) when the server is this host")
}

func (f *prosperoFlags) apply(cfg *fetch.Config) error {
	if f.local {
		cfg.Prospero = &prospero.Handler{Local: true}
	}
	return nil
}
