package main

import (
	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
)

// schemeFlags are the flags of one scheme (flags_<scheme>.go): they are
// added to the command's flag set, and once parsed they configure that
// scheme's handler through fetch.Config.
type schemeFlags interface {
	add(fs *pflag.FlagSet)
	apply(cfg *fetch.Config) error
}

// perSchemeFlags lists every scheme's flags, explicitly: one line a scheme.
func perSchemeFlags() []schemeFlags {
	return []schemeFlags{
		&httpFlags{},
		&nntpFlags{},
		&telnetFlags{},
		&gopherFlags{},
		&ftpFlags{},
		&mailtoFlags{},
		&prosperoFlags{},
		&waisFlags{},
	}
}

// pipelineUser is implemented by the flags of a scheme that sends
// requests ahead (schemes.Pipelines), which the command's --no-pipeline
// turns off.
type pipelineUser interface {
	usePipeline(noPipeline *bool)
}
