//go:build integration

package integration

import (
	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// mustRegistry is fetch.NewRegistry for a test's fixed configuration,
// which is a programming error when it does not build.
func mustRegistry(cfg fetch.Config) *schemes.Registry {
	r, err := fetch.NewRegistry(cfg)
	if err != nil {
		panic(err)
	}
	return r
}
