package file

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"file:///etc/motd":                   "motd",
		"file:/etc/motd":                     "motd",
		"file://localhost/tmp/a%20b.txt":     "a b.txt",
		"file://elsewhere.example/pub/f.txt": "f.txt",
		"file:///tmp/":                       "",
		"file:///":                           "",
		"file://localhost":                   "",
		"file:///tmp/..":                     "",
		"file:///tmp/a%5Cb":                  "b",
		"file:///tmp/a%0Ab":                  "",
	})
}
