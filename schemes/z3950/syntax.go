package z3950

import (
	"slices"
	"strconv"
	"strings"
)

// DefaultDatabase is the database a search form asks when the URL names
// none: "Default", the name yaz-client and YAZ's servers use.
const DefaultDatabase = "Default"

// OID is an ASN.1 object identifier, as its arcs.
type OID []int

// String writes o dotted ("1.2.840.10003.5.10").
func (o OID) String() string {
	s := make([]string, len(o))
	for i, a := range o {
		s[i] = strconv.Itoa(a)
	}
	return strings.Join(s, ".")
}

// Equal reports whether o and p are the same OID.
func (o OID) Equal(p OID) bool { return slices.Equal(o, p) }

// The object identifiers of Z39.50-1995 Appendix 3 (ANSI/NISO Z39.50
// OIDs under 1.2.840.10003) this client uses.
var (
	oidBib1         = OID{1, 2, 840, 10003, 3, 1}       // attribute set Bib-1
	oidDiagBib1     = OID{1, 2, 840, 10003, 4, 1}       // diagnostic set Bib-1
	oidUSMARC       = OID{1, 2, 840, 10003, 5, 10}      // record syntax USMARC (MARC 21)
	oidSUTRS        = OID{1, 2, 840, 10003, 5, 101}     // record syntax SUTRS
	oidGRS1         = OID{1, 2, 840, 10003, 5, 105}     // record syntax GRS-1
	oidXML          = OID{1, 2, 840, 10003, 5, 109, 10} // record syntax text-XML
	oidApplXML      = OID{1, 2, 840, 10003, 5, 109, 11} // record syntax application-XML
	oidOPAC         = OID{1, 2, 840, 10003, 5, 102}     // record syntax OPAC
	oidUNIMARC      = OID{1, 2, 840, 10003, 5, 1}       // record syntax UNIMARC
	oidUKMARC       = OID{1, 2, 840, 10003, 5, 11}      // record syntax UKMARC
	oidExplain      = OID{1, 2, 840, 10003, 5, 100}     // record syntax Explain
	recordSyntaxMap = []namedSyntax{
		{"usmarc", oidUSMARC}, {"marc21", oidUSMARC}, {"marc", oidUSMARC}, {"sutrs", oidSUTRS}, {"xml", oidXML},
		{"text-xml", oidXML}, {"application-xml", oidApplXML}, {"grs-1", oidGRS1}, {"opac", oidOPAC},
		{"unimarc", oidUNIMARC}, {"ukmarc", oidUKMARC}, {"explain", oidExplain},
	}
)

// namedSyntax is a record syntax's name, as ";rs=" and yaz-client's
// "format" write it, and its OID.
type namedSyntax struct {
	name string
	oid  OID
}

// SyntaxOf is the OID of a record syntax given by name (case-insensitive:
// "usmarc", "marc21", "sutrs", "xml", ...) or dotted ("1.2.840.10003.5.10").
func SyntaxOf(s string) (OID, bool) {
	s = strings.ToLower(s)
	for _, n := range recordSyntaxMap {
		if n.name == s {
			return n.oid, true
		}
	}
	return parseDotted(s)
}

// syntaxName is the first name of oid, else its dotted form.
func syntaxName(oid OID) string {
	for _, n := range recordSyntaxMap {
		if n.oid.Equal(oid) {
			return n.name
		}
	}
	return oid.String()
}

// syntaxNames lists the names SyntaxOf knows, for help.
func syntaxNames() string {
	names := make([]string, len(recordSyntaxMap))
	for i, n := range recordSyntaxMap {
		names[i] = n.name
	}
	return strings.Join(names, ", ")
}

// parseDotted reads a dotted OID of at least two arcs, each a decimal
// number that fits BER's encoding here (below 2^28).
func parseDotted(s string) (OID, bool) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 32 {
		return nil, false
	}
	o := make(OID, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n >= 1<<28 || p != strconv.Itoa(n) {
			return nil, false
		}
		o[i] = n
	}
	if o[0] > 2 || (o[0] < 2 && o[1] >= 40) {
		return nil, false
	}
	return o, true
}
