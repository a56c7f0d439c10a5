package waisd

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// retrieve answers a query type "1": the query block (tag 21, outside F)
// holds attribute lists and terms, each term followed by an operator but
// the DocID's (wais-notes §4).
func (cn *conn) retrieve(db string, ext []byte, refID []byte) (*built, error) {
	c := &cursor{buf: ext}
	q, err := c.next()
	if err != nil || q.tag != 21 || c.more() {
		return nil, fmt.Errorf("%w: retrieval without its query block", errDrop)
	}
	fs, err := fieldsOf(q.val, 44, 45, 46)
	if err != nil {
		return nil, err
	}
	terms := map[string][]byte{}
	attr := ""
	for _, f := range fs {
		switch f.tag {
		case 44:
			attr = string(f.val)
		case 45:
			terms[attrKey(attr)] = f.val
		}
	}
	id, wtype, ro, rl := terms["un re"], terms["wt re"], terms["wb ro"], terms["wb rl"]
	if id == nil || wtype == nil || ro == nil || rl == nil {
		// The real server dereferences the TYPE and range terms blindly.
		return nil, fmt.Errorf("%w: retrieval without DocID, TYPE or byte range", errDrop)
	}
	start, err1 := strconv.Atoi(string(ro))
	end, err2 := strconv.Atoi(string(rl))
	cn.s.logf("Retrieve db=%s type=%s bytes %s-%s", db, wtype, ro, rl)
	index := cn.s.indexPath()
	switch {
	case db == FixturesDatabase && cn.s.Fixtures != "":
		index = cn.s.fixturesIndex()
	case db != Database:
		var e bytes.Buffer
		putDiagnostic(&e, "S1", "The following database is not available: "+db)
		return &built{apdu: append(responseHead(0, 1, refID), wrapExt(&e)...)}, nil
	}
	recs, ok := records(id)
	if ok && recs[2] == nil {
		return nil, fmt.Errorf("%w: DocID without its database record", errDrop)
	}
	var e bytes.Buffer
	var doc io.ReaderAt
	size, found := 0, false
	switch {
	case !ok || err1 != nil || err2 != nil || start < 0 || end < start:
		putDiagnostic(&e, "SF", "Bad DocID in request")
	case string(recs[2]) != index:
		putDiagnostic(&e, "SF", "Request out of range")
	default:
		var done func()
		if db == Database {
			doc, done, size, found = cn.lookup(recs)
		} else {
			doc, done, size, found = cn.s.fixture(string(recs[3]))
		}
		if !found {
			putDiagnostic(&e, "SF", "Bad DocID in request")
		} else {
			defer done()
		}
	}
	records := 0
	var out bytes.Buffer
	if found {
		switch {
		case start >= size:
			putDiagnostic(&e, "SF", "Request out of range")
		default:
			part := make([]byte, min(end, size)-start)
			if _, err := doc.ReadAt(part, int64(start)); err != nil {
				return nil, fmt.Errorf("%w: reading the document: %v", errDrop, err)
			}
			var g bytes.Buffer
			putString(&g, 116, id)
			putString(&g, 117, []byte{0})
			putString(&g, 127, part)
			putGroup(&out, 153, &g)
			records++
			if end > size {
				putDiagnostic(&e, "SF", "Request out of range")
			}
		}
	}
	if e.Len() > 0 {
		records++
	}
	out.Write(e.Bytes())
	return &built{apdu: append(responseHead(0, records, refID), wrapExt(&out)...)}, nil
}

// records reads a DocID's records by tag.
func records(id []byte) (map[int][]byte, bool) {
	c := &cursor{buf: id}
	m := map[int][]byte{}
	for c.more() {
		f, err := c.next()
		if err != nil {
			return nil, false
		}
		m[f.tag] = f.val
	}
	return m, true
}

// lookup finds the document of the corpus a DocID's local id names:
// "start end file" of a corpus document, or the source and catalog
// documents; it returns it as fixture does.
func (cn *conn) lookup(recs map[int][]byte) (io.ReaderAt, func(), int, bool) {
	text, ok := cn.corpusText(string(recs[3]))
	return bytes.NewReader(text), func() {}, len(text), ok
}

func (cn *conn) corpusText(local string) ([]byte, bool) {
	switch local {
	case "source":
		return sourceText(), true
	case "catalog":
		return catalogText(), true
	}
	parts := strings.SplitN(local, " ", 3)
	if len(parts) != 3 {
		return nil, false
	}
	for _, d := range Documents() {
		if fmt.Sprint(d.Start) == parts[0] && fmt.Sprint(d.End) == parts[1] && path.Join(cn.s.Corpus, d.File) == parts[2] {
			return d.Text, true
		}
	}
	return nil, false
}

// attrKey is the first two words of an attribute list ("wb ro ig ig ig
// ig" → "wb ro"): the use and relation that say what a term is.
func attrKey(attr string) string {
	w := strings.Fields(attr)
	if len(w) < 2 {
		return attr
	}
	return w[0] + " " + w[1]
}
