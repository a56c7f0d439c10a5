package wais

import (
	"strings"

	"github.com/urlget/urlget/schemes"
)

// LocalName is, for a document URL, the name of the file its DocID says
// the document is in: the last "/" component of the original local id
// (record 3; else the distributor's, record 6), which freeWAIS writes
// "start end path" ("0 107 /corpus/orchard.txt" names "orchard.txt"); ""
// when the DocID names no file. A hit's headline, the document's other
// name, is known only to the search that found it, where it names the
// hit's listing entry. For a database or a search it is the database's
// name, which its listing would be saved under.
func (w *URL) LocalName() string {
	if w.WPath == nil {
		return schemes.BaseName(w.Database)
	}
	_, name := splitLength(w.EscapedWPath())
	recs, err := docRecords(name)
	if err != nil {
		return ""
	}
	for _, tag := range []int{docOriginalLocalID, docDistributorLocalID} {
		for _, r := range recs {
			if r.tag == tag {
				return localIDFile(r.value)
			}
		}
	}
	return ""
}

// The DocID records that hold a server's local id of the document
// (wais-notes §5: originalLocalID, distributorLocalID).
const (
	docOriginalLocalID    = 3
	docDistributorLocalID = 6
)

// localIDFile is the file name in a freeWAIS local id, "start end path":
// the path's last component (schemes.BaseName). A local id of another
// shape is taken as a path as a whole.
func localIDFile(id string) string {
	if start, rest, ok := strings.Cut(id, " "); ok && isDigits(start) {
		if end, path, ok := strings.Cut(rest, " "); ok && isDigits(end) {
			id = path
		}
	}
	return schemes.BaseName(id)
}

func isDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
