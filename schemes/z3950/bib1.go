package z3950

// Bib-1 diagnostics (Z39.50-1995 Appendix 4, the bib-1 diagnostic set)
// that decide an error's kind.
const (
	diagAccessControl       = 101  // access-control failure
	diagDatabaseUnavailable = 109  // database unavailable
	diagNoSuchDatabase      = 235  // database does not exist
	diagDatabaseDenied      = 236  // access to the database denied
	diagBadLogin            = 1011 // Init/AC: bad user id or password
)

// bib1Meaning is what the bib-1 conditions a server is likely to send
// mean, in words, for messages: a number alone ("bib-1 23") leaves the
// user to look it up, as yaz-client does not. Conditions not here are
// shown by number only.
var bib1Meaning = map[int64]string{
	1:    "permanent system error",
	2:    "temporary system error",
	3:    "unsupported search",
	4:    "only stop words in the query",
	5:    "too many words",
	6:    "too many Boolean operators",
	7:    "too many truncated words",
	9:    "truncated words too short",
	10:   "invalid record number",
	11:   "search statement too long",
	12:   "too many records retrieved",
	13:   "present request out of range",
	14:   "system error presenting records",
	16:   "record larger than the preferred message size",
	17:   "record larger than the maximum record size",
	22:   "result set naming not supported",
	23:   "this combination of databases is not supported",
	24:   "element set names not supported",
	25:   "element set name not valid for this database",
	27:   "result set deleted by the server",
	28:   "result set in use",
	29:   "a database is locked",
	30:   "result set does not exist",
	31:   "resources exhausted, no results",
	100:  "unspecified error",
	101:  "access-control failure",
	107:  "query type not supported",
	108:  "malformed query",
	109:  "database unavailable",
	110:  "operator not supported",
	111:  "too many databases",
	113:  "attribute type not supported",
	114:  "Use attribute not supported",
	116:  "a Use attribute is required",
	117:  "Relation attribute not supported",
	118:  "Structure attribute not supported",
	119:  "Position attribute not supported",
	120:  "Truncation attribute not supported",
	121:  "attribute set not supported",
	123:  "attribute combination not supported",
	125:  "malformed search term",
	126:  "term value not valid for its attribute",
	235:  "database does not exist",
	236:  "access to the database denied",
	238:  "record not available in the requested syntax",
	239:  "record syntax not supported",
	1011: "bad user id or password",
}
