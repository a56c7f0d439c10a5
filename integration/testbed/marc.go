package testbed

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// The Zebra catalogue (integration/servers/zebra): MARC 21 records that
// integration/cmd/mkmarc writes into ZebraDir and the zebra service
// indexes at each start, in two databases. Everything is a function of
// the record's number, so the catalogue is the same at every run.
const (
	// ZebraBooks is the database of records 1..ZebraBookRecords.
	ZebraBooks       = "books"
	ZebraBookRecords = 1000
	// ZebraJournals is the database of the next ZebraJournalRecords.
	ZebraJournals       = "journals"
	ZebraJournalRecords = 100
	// ZebraCommonWord is in every record (its 003): a search for it
	// finds a whole database.
	ZebraCommonWord = "ugtb"
)

// ZebraDatabases are the catalogue's databases, in record order.
var ZebraDatabases = []string{ZebraBooks, ZebraJournals}

// MARCField is one field of a MARC record: a control field (tag 001 to
// 009) has Data, a data field two indicators and subfields (code, data).
type MARCField struct {
	Tag       string
	Data      string
	Ind       string
	Subfields [][2]string
}

// MARCRecord is one record: the leader's variable positions and fields.
type MARCRecord struct {
	// Status, Type, Level and Coding are leader positions 5, 6, 7 and 9
	// (Coding 'a': UCS/Unicode, ' ': MARC-8, here plain ASCII).
	Status, Type, Level, Coding byte
	Fields                      []MARCField
}

// Control is the data of the record's first control field with tag, ""
// if none.
func (r MARCRecord) Control(tag string) string {
	for _, f := range r.Fields {
		if f.Tag == tag {
			return f.Data
		}
	}
	return ""
}

// ISO 2709's separators (MARC 21's record structure).
const (
	marcSubfield = "\x1f"
	marcField    = "\x1e"
	marcRecord   = "\x1d"
)

// ISO2709 is the record in ISO 2709 as MARC 21 uses it: a 24-octet
// leader, 12-octet directory entries (tag, length 4, start 5), fields
// ending with IS2, the record with IS3.
func (r MARCRecord) ISO2709() []byte {
	var dir, data bytes.Buffer
	for _, f := range r.Fields {
		var b strings.Builder
		if f.Subfields == nil {
			b.WriteString(f.Data)
		} else {
			b.WriteString(f.Ind)
			for _, sf := range f.Subfields {
				b.WriteString(marcSubfield + sf[0] + sf[1])
			}
		}
		b.WriteString(marcField)
		fmt.Fprintf(&dir, "%s%04d%05d", f.Tag, b.Len(), data.Len())
		data.WriteString(b.String())
	}
	dir.WriteString(marcField)
	base := 24 + dir.Len()
	total := base + data.Len() + 1
	// Positions 17-19: full level, AACR2, no multipart; 20-23 the
	// directory's entry map.
	leader := fmt.Sprintf("%05d%c%c%c %c22%05d a 4500", total, r.Status, r.Type, r.Level, r.Coding, base)
	out := make([]byte, 0, total)
	out = append(out, leader...)
	out = append(out, dir.Bytes()...)
	out = append(out, data.Bytes()...)
	return append(out, marcRecord...)
}

// Word lists the records are made of: each list's length is prime to the
// others', so that the combinations repeat rarely.
var (
	marcAdjectives = []string{"Practical", "Modern", "Concise", "Illustrated", "Complete", "Early", "Hidden", "Northern", "Quiet", "Urban", "Ancient"}
	marcTopics     = []string{"gardening", "navigation", "astronomy", "computing", "cookery", "weaving", "typography", "bookbinding", "ornithology", "cartography", "beekeeping", "glassmaking", "pottery"}
	marcSurnames   = []string{"Abbott", "Barlow", "Carver", "Dalton", "Ellery", "Fenwick", "Garland"}
	marcGiven      = []string{"Alice", "Bernard", "Clara", "Desmond", "Edith"}
	marcPlaces     = []string{"New York", "London", "Boston"}
	// marcUTF8Authors and marcUTF8Words are for every fifth record, whose
	// leader says UTF-8.
	marcUTF8Authors = []string{"Dvořák, Antonín", "Ærø, Søren", "Ñandú, Zoë", "Łukasiewicz, Jan", "Müller, Jürgen", "Ōe, Kenzaburō"}
	marcUTF8Words   = []string{"Café", "Øresund", "Straße", "Tōkyō", "Kraków"}
)

// ZebraRecord is record n of the catalogue, 1 <= n <= ZebraRecords(). Its
// 001 takes one of five forms, all met in real catalogues: an OCLC
// number ("ocm" and eight digits), an LCCN with its blanks ("   " eight
// digits " "), an LC number with a revision ("73090924 //r82"), a local
// prefix with a hyphen ("zb-000123"), and for the UTF-8 records "ocn"
// and nine digits. Every number is unique, and appears nowhere else.
func ZebraRecord(n int) MARCRecord {
	num := 41000000 + 13*n
	var id string
	switch {
	case n%5 == 0:
		id = fmt.Sprintf("ocn%09d", num)
	case n%4 == 0:
		id = fmt.Sprintf("ocm%08d", num)
	case n%4 == 1:
		id = fmt.Sprintf("   %08d ", num)
	case n%4 == 2:
		id = fmt.Sprintf("%08d //r%02d", num, n%100)
	default:
		id = fmt.Sprintf("zb-%06d", n)
	}
	r := MARCRecord{Status: 'n', Type: 'a', Level: 'm', Coding: ' '}
	year := 1950 + n%70
	topic := marcTopics[n%len(marcTopics)]
	title := marcAdjectives[n%len(marcAdjectives)] + " " + topic
	author := fmt.Sprintf("%s, %s,", marcSurnames[n%len(marcSurnames)], marcGiven[n%len(marcGiven)])
	if n%5 == 0 {
		r.Coding = 'a'
		title = marcUTF8Words[(n/5)%len(marcUTF8Words)] + " " + title
		author = marcUTF8Authors[(n/5)%len(marcUTF8Authors)] + ","
	}
	serial := n > ZebraBookRecords
	if serial {
		r.Level = 's'
		title = "Journal of " + topic
	}
	title245 := [][2]string{{"a", title}}
	switch {
	case n%7 == 0:
		title245[0][1] += " :"
		title245 = append(title245, [2]string{"b", "a handbook for beginners /"})
	default:
		title245[0][1] += " /"
	}
	title245 = append(title245, [2]string{"c", "by " + author[:len(author)-1] + "."})
	lang := "eng"
	r.Fields = []MARCField{
		{Tag: "001", Data: id},
		{Tag: "003", Data: strings.ToUpper(ZebraCommonWord)},
		{Tag: "005", Data: "20261205000000.0"},
		{Tag: "008", Data: fmt.Sprintf("261205s%04d    nyu           000 0 %s d", year, lang)},
		{Tag: "100", Ind: "1 ", Subfields: [][2]string{{"a", author}}},
		{Tag: "245", Ind: "10", Subfields: title245},
		{Tag: "260", Ind: "  ", Subfields: [][2]string{{"a", marcPlaces[n%len(marcPlaces)] + " :"}, {"b", "Testbed Press,"}, {"c", fmt.Sprintf("%d.", year)}}},
		{Tag: "650", Ind: " 0", Subfields: [][2]string{{"a", strings.ToUpper(topic[:1]) + topic[1:]}}},
	}
	if n%3 == 0 {
		r.Fields = append(r.Fields, MARCField{Tag: "650", Ind: " 0", Subfields: [][2]string{{"a", strings.ToUpper(topic[:1]) + topic[1:]}, {"x", "History."}}})
	}
	if serial {
		r.Fields = append(r.Fields, MARCField{Tag: "310", Ind: "  ", Subfields: [][2]string{{"a", "Quarterly"}}})
	}
	return r
}

// ZebraRecords is the number of records of the catalogue.
func ZebraRecords() int { return ZebraBookRecords + ZebraJournalRecords }

// ZebraDatabaseOf is the database of record n.
func ZebraDatabaseOf(n int) string {
	if n > ZebraBookRecords {
		return ZebraJournals
	}
	return ZebraBooks
}

// ZebraFile is the file, in ZebraDir, of a database's records.
func ZebraFile(db string) string { return db + ".mrc" }

// ZebraDir returns the host directory of the catalogue's files (mounted
// read-only at /srv/zebra in the zebra service).
func ZebraDir() string { return filepath.Join(RunDir(), "zebra") }
