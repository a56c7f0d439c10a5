package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urlget/urlget/schemes"
)

// makeDirs creates the missing directories of the output path name
// (--create-dirs), as curl does.
func (o *options) makeDirs(loc schemes.Locator, name string) error {
	if !o.createDirs {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return outputError(loc, fmt.Sprintf("--create-dirs: cannot create the directory of %s", name), err)
	}
	return nil
}

// serverName says whether the i-th URL's file takes the name the server
// suggests (-J, with -O and no -o for it; fetch.DownloadOptions.ServerName).
func (o *options) serverName(i int) bool {
	return o.headerName && i >= len(o.outputs) && o.remoteName
}
