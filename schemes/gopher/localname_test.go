package gopher

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"gopher://h/0/text/lf.txt":                "lf.txt",
		"gopher://h/":                             "", // the top menu
		"gopher://h":                              "",
		"gopher://h/1/docs/":                      "docs",
		"gopher://h/9a%20b.bin":                   "a b.bin",
		"gopher://h/0x%0Ay":                       "",
		"gopher://h/7/search%09apple":             "search", // a search
		"gopher://h/7/search%09":                  "search", // an empty one
		"gopher://h/0/text/f.txt%09%09+":          "f.txt",  // a Gopher+ item
		"gopher://h/0/text/f.txt%09%09!+ABSTRACT": "f.txt",  // its attributes
		"gopher://h/7/a/b%09c/d%09+":              "b",      // a "/" in search or Gopher+ string names nothing
		"gopher://h/0a%2Fb":                       "b",      // "%2F" and "/" are one selector
		"gopher://h/0/../..":                      "",
		"gopher://h/0a%5Cb":                       "b",
		"gopher://h/hURL:http://x/pub/f.html":     "f.html", // a link to another URL: its path's name
		"gophers://h/9/bin/tool.tar.gz":           "tool.tar.gz",
	})
}
