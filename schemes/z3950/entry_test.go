package z3950

import (
	"fmt"
	"testing"
)

// TestEntryDocID: a listed record's Retrieval URL searches its control
// number (001, blanks trimmed) in its database, with the search's first
// record syntax, for MARC and MARCXML alike; a record without a control
// number, or whose database the server did not name in a search of
// several, has none.
func TestEntryDocID(t *testing.T) {
	const xml001 = `<record xmlns="http://www.loc.gov/MARC21/slim"><controlfield tag="001">%s</controlfield>` +
		`<datafield tag="245" ind1="1" ind2="0"><subfield code="a">Modern navigation /</subfield></datafield></record>`
	marc := []byte("00087nam a2200049 a 4500" + "001001300000" + "245002400013" + "\x1e" +
		"   41000013 \x1e" + "10\x1faModern navigation /\x1e" + "\x1d")
	for _, tt := range []struct {
		search string
		rec    record
		url    string // "" for none
	}{
		{"books?ugtb;rs=xml", record{db: "books", syntax: oidXML, data: []byte(fmt.Sprintf(xml001, "   41000013 "))},
			"z39.50r://h:2101/books?41000013;rs=xml"},
		{"books+journals?ugtb;rs=xml", record{db: "journals", syntax: oidXML, data: []byte(fmt.Sprintf(xml001, "41000026 //r02"))},
			"z39.50r://h:2101/journals?41000026%20%2F%2Fr02;rs=xml"},
		{"books?ugtb", record{syntax: oidUSMARC, data: marc}, "z39.50r://h:2101/books?41000013"},
		{"books+journals?ugtb", record{syntax: oidXML, data: []byte(fmt.Sprintf(xml001, "1"))}, ""},
		{"books?ugtb;rs=xml", record{db: "books", syntax: oidXML, data: []byte(fmt.Sprintf(xml001, "  "))}, ""},
		{"books?ugtb;rs=sutrs", record{db: "books", syntax: oidSUTRS, data: []byte("Modern navigation /\n001 1\n")}, ""},
	} {
		z, err := parse(t, "z39.50s://h:2101/"+tt.search)
		if err != nil {
			t.Fatal(err)
		}
		e := (&hitListing{z: z}).entry(1, tt.rec)
		url := ""
		if e.Locator != nil {
			url = e.Locator.String()
		}
		if url != tt.url || e.Title != "Modern navigation /" {
			t.Errorf("%s, %s record: URL %q title %q, want %q", tt.search, tt.rec.syntax, url, e.Title, tt.url)
		}
	}
}
