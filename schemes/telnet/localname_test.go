package telnet

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	// A login is nothing a file could hold.
	schemestest.LocalNames(t, Parse, map[string]string{
		"telnet://u:pw@h:23/": "",
		"rlogin://u@h":        "",
		"tn3270://h/":         "",
	})
}
