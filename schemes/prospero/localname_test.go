package prospero

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"prospero://host.dom//pros/name":                "name",
		"prospero://host.dom:1525/pros/docs/":           "docs", // the link a directory is
		"prospero://h/pub/rfc1738.txt;OBJECT-VERSION=2": "rfc1738.txt",
		"prospero://h/a%2Fb":                            "b", // "%2F" and "/" are one hsoname
		"prospero://h/x":                                "x",
		"prospero://h/pros/..":                          "",
		"prospero://h//":                                "",
		"prospero://h/a%0Ab":                            "",
	})
}
