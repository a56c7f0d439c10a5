package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
)

// addSegmentFlags defines --segments: a large file to -o/-O over several
// connections at once (fetch.DownloadOptions.Segments).
func addSegmentFlags(fs *pflag.FlagSet, o *options) {
	fs.IntVar(&o.segments, "segments", 0, fmt.Sprintf("fetch a file of 8 MiB or more to -o/-O over `N` connections at once, by ranges (ftp REST, http Range; at most %d); -C - continues only the missing ranges", fetch.MaxSegments))
}

// checkSegments refuses a --segments that cannot be meant.
func checkSegments(fs *pflag.FlagSet, n int) error {
	if fs.Changed("segments") && (n < 1 || n > fetch.MaxSegments) {
		return fmt.Errorf("--segments %d: want 1 to %d connections", n, fetch.MaxSegments)
	}
	return nil
}
