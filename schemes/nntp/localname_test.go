package nntp

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"nntp://h/comp.lang.go/42":      "42",
		"nntp://h/comp.lang.go/007":     "7", // article 7, however written
		"nntps://u:pw@h:563/alt.test/1": "1",
		"nntp://h/comp.lang.go":         "comp.lang.go", // a group: its listing's name
	})
	schemestest.LocalNames(t, ParseNews, map[string]string{
		"news:12345667123@info.cern.ch":  "12345667123@info.cern.ch",
		"news:%3Cid@host%3E":             "id@host", // without the "<" ">" of its header form
		"news://srv/part1/part2@host":    "part2@host",
		"news:a%2Fb@host":                "b@host",
		"news:..@host":                   "..@host",
		"news:comp.infosystems.www.misc": "comp.infosystems.www.misc",
		"news://srv:119/alt.test":        "alt.test",
		"news:*":                         "", // every group: no one thing to name
	})
}
