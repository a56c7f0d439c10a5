package http

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"http://h/dir/x.tar.gz":               "x.tar.gz",
		"http://h/dir/x.tar.gz?mirror=a/b":    "x.tar.gz", // the search part is no part of it
		"http://h/dir/x.tar.gz#part":          "x.tar.gz",
		"http://h/dir/":                       "",
		"http://h":                            "",
		"https://h/%7Euser/a%20b":             "a b",
		"http://h/a%2Fb":                      "b",
		"http://h/x%2F..%2F..%2Fetc%2Fpasswd": "passwd",
		"http://h/a/..":                       "",
		"http://h/%2E%2E":                     "",
		"http://h/a%5Cb":                      "b",
		"http://h/a%00b":                      "",
		"http://h/marie%2Dclaude":             "marie-claude",
	})
}
