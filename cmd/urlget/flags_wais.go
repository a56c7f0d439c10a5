package main

import (
	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes/wais"
)

// waisFlags configure the wais handler. It has no flags of its own: a
// search asks for the command's --max hits (fetch.Config.Max), else
// wais.DefaultMax.
type waisFlags struct{}

func (waisFlags) add(*pflag.FlagSet) {}

func (waisFlags) apply(cfg *fetch.Config) error {
	if cfg.Max > 0 {
		cfg.WAIS = &wais.Handler{Max: cfg.Max}
	}
	return nil
}
