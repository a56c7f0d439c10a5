package wais

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		// A freeWAIS-sf hit: its DocID's local id "0 107 /var/.../orchard.txt"
		// names the file, not the URL's last "/" segment ("orchard.txt;4=...;7=%00;").
		hit: "orchard.txt",
		"wais://h/db/TEXT,HTML/12/3=0%2012%20/srv/pages/index.html;": "index.html",
		"wais://h/db/TEXT/3=0%2012%20/srv/a%20b.txt;":                "a b.txt", // no length
		"wais://h/db/TEXT/9/2=/idx;6=0%209%20/srv/dist.txt;":         "dist.txt",
		"wais://h/db/TEXT/9/3=notes.txt;":                            "notes.txt", // a local id of another shape
		"wais://h/db/TEXT/9/3=0%209%20/srv/a%5Cb%3Bc;":               "b;c",       // "\" cut, a "%3B" inside the value kept
		"wais://h/db/WSRC/0/2=/idx/catalog;7=%00;":                   "",          // no local id: no file name
		"wais://h/db/TEXT/107/doc":                                   "",          // no DocID records
		"wais://h/db/TEXT/9/3=0%209%20/srv/dir/;":                    "",
		"wais://h/db/TEXT/9/3=0%209%20/srv/..;":                      "",
		"wais://h/db/TEXT/9/3=0%209%20/srv/a%0Ab;":                   "",
		"wais://h/demo":           "demo", // a database: its name
		"wais://h/demo?apple+pie": "demo", // a search of it: the same
		"wais://h/a%2Fb%3Fc":      "b?c",
	})
}
