package wais

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// maxDocIDRecords bounds the records of a DocID read from a URL (freeWAIS-sf
// writes 7).
const maxDocIDRecords = 64

// docName writes a DocID as the docname of a document URL (wais-notes §7):
// for each record `<tag>=<value>;`, every byte of the value outside
// A–Z a–z 0–9 . / - _ $ written %XX (upper-case hex). It reports false
// for a DocID that is not a sequence of records in the shortest encoding
// (a longer one would not come back as the same bytes, and a DocID must).
func docName(docID []byte) (string, bool) {
	var b strings.Builder
	r := &reader{b: docID}
	for !r.done() {
		tag, err := r.minimalCI()
		if err != nil {
			return "", false
		}
		n, err := r.minimalCI()
		if err != nil {
			return "", false
		}
		val, err := r.take(n)
		if err != nil {
			return "", false
		}
		b.WriteString(strconv.Itoa(tag))
		b.WriteByte('=')
		for _, c := range val {
			if docNameSafe(c) {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		b.WriteByte(';')
	}
	return b.String(), true
}

func docNameSafe(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("./-_$", c) >= 0
}

// parseDocName rebuilds the DocID from an escaped docname (notes §7):
// its records (docRecords), each written CI(tag) CI(len) value.
func parseDocName(escaped string) ([]byte, error) {
	recs, err := docRecords(escaped)
	if err != nil {
		return nil, err
	}
	var id []byte
	for _, r := range recs {
		id = appendField(id, r.tag, []byte(r.value))
	}
	return id, nil
}

// docRecord is one `<tag>=<value>` record of a docname, its value decoded.
type docRecord struct {
	tag   int
	value string
}

// docRecords splits an escaped docname into its records (notes §7): at
// ";", each at its first "=", the value %-decoded only then (so a "%3B"
// inside a value is a byte of it).
func docRecords(escaped string) ([]docRecord, error) {
	recs := strings.Split(strings.TrimSuffix(escaped, ";"), ";")
	if len(recs) > maxDocIDRecords {
		return nil, fmt.Errorf("more than %d DocID records", maxDocIDRecords)
	}
	out := make([]docRecord, 0, len(recs))
	for _, rec := range recs {
		t, v, ok := strings.Cut(rec, "=")
		tag, err := strconv.Atoi(t)
		if !ok || err != nil || tag < 0 || tag >= 1<<(7*maxCILen) {
			return nil, fmt.Errorf("DocID record %q is not <tag>=<value>", rec)
		}
		val, err := schemes.Unescape(v)
		if err != nil {
			return nil, fmt.Errorf("DocID record %q: %v", rec, err)
		}
		out = append(out, docRecord{tag, val})
	}
	return out, nil
}

// splitLength splits a document URL's escaped wpath, LENGTH/docname or a
// docname alone, into its length ("" when absent) and its docname.
func splitLength(wpath string) (length, docname string) {
	if l, rest, ok := strings.Cut(wpath, "/"); ok && isDigits(l) {
		return l, rest
	}
	return "", wpath
}

// printableDocID shows a DocID in traces and plans: its docname.
func printableDocID(docID []byte) string {
	if s, ok := docName(docID); ok {
		return s
	}
	return fmt.Sprintf("%q", docID)
}

// minimalCI reads a compressed integer written in its fewest bytes (no
// leading 0x80 group).
func (r *reader) minimalCI() (int, error) {
	if !r.done() && r.b[r.off] == 0x80 {
		return 0, protoErr("a compressed integer with a leading zero group at byte %d", r.off)
	}
	return r.ci()
}
