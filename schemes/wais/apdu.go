package wais

import (
	"fmt"
	"strconv"
)

// Set bounds and the element set of the requests, as freeWAIS-sf's own
// client and every historical client send them (wais-notes §4, §9).
var (
	searchBounds   = []byte{0, 0, 30, 0, 0x13, 0x88, 0, 0, 30} // 30 / 5000 / 30
	retrieveBounds = []byte{0, 0, 10, 0, 0, 16, 0, 0, 15}      // 10 / 16 / 15
	elementSet     = []byte(" \x1fDocument Text")
)

// retrieveResultSet and retrieveRefID are what the historical clients
// name a retrieval's result set and reference (the server echoes the
// reference; nothing else depends on them).
const (
	retrieveResultSet = "FOO"
	retrieveRefID     = "3"
	chunkSize         = 10000 // every historical client's byte range (notes §6)
)

// searchAPDU is a Search (query type "3") of db for seed, asking for at
// most max documents (wais-notes §4). Empty seed words ask for the
// database's description and catalog.
func searchAPDU(db, seed string, max int) []byte {
	var p []byte
	p = append(p, pduSearch)
	p = append(p, searchBounds...)
	p = append(p, 1) // ReplaceIndicator
	p = appendField(p, tagResultSetName, nil)
	p = appendField(p, tagDatabaseNames, []byte(db))
	p = appendField(p, tagQueryType, []byte("3"))
	var ext []byte
	ext = appendField(ext, tagSeedWords, []byte(seed))
	ext = appendNum(ext, tagDateFactor, 1)
	ext = appendNum(ext, tagMaxDocuments, max)
	return withFixedLength(p, appendField(nil, tagExtension, ext))
}

// retrieveAPDU asks for the bytes [start, end) of the document docID of
// type wtype in db: a Search of query type "1" whose query block (tag 21,
// outside F) holds the DocID, TYPE and byte-range terms (wais-notes §4).
func retrieveAPDU(db string, docID []byte, wtype string, start, end int64) []byte {
	var p []byte
	p = append(p, pduSearch)
	p = append(p, retrieveBounds...)
	p = append(p, 1)
	p = appendField(p, tagResultSetName, []byte(retrieveResultSet))
	p = appendField(p, tagDatabaseNames, []byte(db))
	p = appendField(p, tagQueryType, []byte("1"))
	p = appendField(p, tagElementSetNames, elementSet)
	p = appendField(p, tagReferenceID, []byte(retrieveRefID))
	var q []byte
	term := func(attrs string, val []byte, op bool) {
		q = appendField(q, tagAttributeList, []byte(attrs))
		q = appendField(q, tagTerm, val)
		if op {
			q = appendField(q, tagOperator, []byte("a"))
		}
	}
	term("un re ig ig ig ig", docID, false)
	term("wt re ig ig ig ig", []byte(wtype), true)
	term("wb ro ig ig ig ig", strconv.AppendInt(nil, start, 10), true)
	term("wb rl ig ig ig ig", strconv.AppendInt(nil, end, 10), true)
	return withFixedLength(p, appendField(nil, tagQuery, q))
}

// withFixedLength prefixes the fixed part p with its 2-byte length F and
// appends the extension, which F does not count (notes §2).
func withFixedLength(p, ext []byte) []byte {
	b := []byte{byte(len(p) >> 8), byte(len(p))}
	b = append(b, p...)
	return append(b, ext...)
}

// searchHit is one DocumentHeaderGroup of a search reply.
type searchHit struct {
	docID    []byte
	score    int
	length   int64
	lines    int
	types    []string
	source   string
	date     string
	headline string
}

// diagnostic is a diagnostic record: a 2-letter code and a message.
type diagnostic struct{ code, msg string }

func (d diagnostic) String() string { return fmt.Sprintf("%s %q", d.code, d.msg) }

// maxDiags and maxTypes bound the diagnostics of a reply and the TYPEs of
// a hit that are kept: a server sends one or two of each (wais-notes §4),
// and a hostile one must not make the client hold one for every few
// bytes of its reply.
const (
	maxDiags = 8
	maxTypes = 16
)

// reply is a decoded SearchResponse.
type reply struct {
	status  int
	records int
	hits    []searchHit // the first maxHits header groups
	texts   [][]byte    // DocumentText of each DocumentTextGroup
	diags   []diagnostic

	maxHits   int // header groups kept; the rest are only counted
	moreHits  int // header groups beyond maxHits, skipped undecoded
	moreDiags int // diagnostics beyond maxDiags
}

// groups is how many header groups the reply held, kept or not.
func (rp *reply) groups() int { return len(rp.hits) + rp.moreHits }

// decodeReply reads a SearchResponse APDU (wais-notes §4): the fixed part
// and its fields, then the extension's header groups, text groups and
// diagnostics, in any order; unknown tags are skipped. Only the first
// maxHits header groups are decoded and kept: a search asks for that many,
// and a server that ignores it must not make the client hold a hit for
// every nine bytes of a 1 MiB reply (116,000 of them). The rest are
// counted, their framing still checked.
func decodeReply(b []byte, maxHits int) (*reply, error) {
	if len(b) < 2 {
		return nil, protoErr("a reply of %d bytes", len(b))
	}
	f := int(b[0])<<8 | int(b[1])
	if f < 13 || 2+f > len(b) {
		return nil, protoErr("a fixed part of %d bytes in a reply of %d", f, len(b))
	}
	if b[2] != pduSearchResponse {
		return nil, protoErr("PDU type %d, want %d (SearchResponse)", b[2], pduSearchResponse)
	}
	rp := &reply{status: int(b[3]), records: int(b[7])<<16 | int(b[8])<<8 | int(b[9]), maxHits: max(maxHits, 0)}
	if err := rp.fields(&reader{b: b[13 : 2+f]}, 0); err != nil {
		return nil, err
	}
	if err := rp.fields(&reader{b: b[2+f:]}, 0); err != nil {
		return nil, err
	}
	return rp, nil
}

// fields reads a sequence of fields at nesting depth, descending into
// the extension and the groups.
func (rp *reply) fields(r *reader, depth int) error {
	if depth > maxNestDepth {
		return protoErr("fields nested deeper than %d", maxNestDepth)
	}
	for !r.done() {
		tag, val, err := r.field()
		if err != nil {
			return err
		}
		switch tag {
		case tagExtension:
			if err := rp.fields(&reader{b: val}, depth+1); err != nil {
				return err
			}
		case tagHeaderGroup:
			if len(rp.hits) >= rp.maxHits {
				rp.moreHits++
				continue
			}
			h, err := decodeHit(val)
			if err != nil {
				return err
			}
			rp.hits = append(rp.hits, h)
		case tagTextGroup:
			t, err := decodeText(val)
			if err != nil {
				return err
			}
			rp.texts = append(rp.texts, t)
		case tagDiagnostic:
			if len(rp.diags) >= maxDiags {
				rp.moreDiags++
				continue
			}
			d := diagnostic{}
			if len(val) >= 2 {
				d.code, val = string(val[:2]), val[2:]
			}
			if len(val) > 0 && val[len(val)-1] <= 1 { // the flag byte (notes §2)
				val = val[:len(val)-1]
			}
			d.msg = string(val)
			rp.diags = append(rp.diags, d)
		}
	}
	return nil
}

// decodeHit reads a DocumentHeaderGroup, its fields in any order.
func decodeHit(b []byte) (searchHit, error) {
	h := searchHit{length: -1}
	r := &reader{b: b}
	for !r.done() {
		tag, val, err := r.field()
		if err != nil {
			return h, err
		}
		switch tag {
		case tagDocumentID:
			h.docID = append([]byte(nil), val...)
		case tagScore:
			h.score, err = num(val)
		case tagDocumentLength:
			var n int
			n, err = num(val)
			h.length = int64(n)
		case tagLines:
			h.lines, err = num(val)
		case tagTypeBlock:
			tr := &reader{b: val}
			for !tr.done() && err == nil {
				var t int
				var tv []byte
				if t, tv, err = tr.field(); err == nil && t == tagType && len(h.types) < maxTypes {
					h.types = append(h.types, string(tv))
				}
			}
		case tagSource:
			h.source = string(val)
		case tagDate:
			h.date = string(val)
		case tagHeadline:
			h.headline = string(val)
		}
		if err != nil {
			return h, err
		}
	}
	if h.docID == nil {
		return h, protoErr("a header group without a DocumentID")
	}
	return h, nil
}

// decodeText reads a DocumentTextGroup and returns its DocumentText.
func decodeText(b []byte) ([]byte, error) {
	r := &reader{b: b}
	var text []byte
	for !r.done() {
		tag, val, err := r.field()
		if err != nil {
			return nil, err
		}
		if tag == tagDocumentText {
			text = val
		}
	}
	return text, nil
}
