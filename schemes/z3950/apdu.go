package z3950

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/internal/ber"
)

// The PDU choices of Z39.50-1995 (ASN.1 module Z39-50-APDU-1995, PDU):
// context tags, constructed, IMPLICIT.
const (
	pduInitRequest     = 20
	pduInitResponse    = 21
	pduSearchRequest   = 22
	pduSearchResponse  = 23
	pduPresentRequest  = 24
	pduPresentResponse = 25
	pduClose           = 48
)

// The Options bits of InitializeRequest (Z39.50-1995 §3.2.1.1.6) this
// client asks for, and the protocol version it speaks.
const (
	optSearch         = 0
	optPresent        = 1
	optNamedResultSet = 14
	version3          = 2 // ProtocolVersion's bit for version 3
)

// closeFinished is Close's closeReason "finished" (Z39.50-1995 §3.2.11.1.5).
const closeFinished = 0

// resultSetName is the name of the one result set a session makes: "1",
// as yaz-client names its first.
const resultSetName = "1"

// initRequest is the InitializeRequest: version 3, search and present
// and named result sets, with message sizes of msgSize.
func initRequest(msgSize int) []byte {
	return ctxCons(pduInitRequest,
		ctxBits(3, 3, 0, 1, version3),                            // protocolVersion: 1, 2 and 3
		ctxBits(4, 15, optSearch, optPresent, optNamedResultSet), // options
		ctxInt(5, int64(msgSize)),                                // preferredMessageSize
		ctxInt(6, int64(msgSize)),                                // exceptionalRecordSize
		ctxStr(110, "urlget"),                                    // implementationId
		ctxStr(111, "urlget"),                                    // implementationName
	)
}

// searchRequest asks for words in dbs: a type-1 (RPN) query in Bib-1 with
// no attributes (the server's defaults, as yaz-client's "find word"
// sends). URLs give one term, their docid (URL.Words); several words
// would be joined by AND left to right ("@and @and a b c"). No records
// are piggybacked (smallSetUpperBound 0, as yaz-client).
func searchRequest(dbs []string, words []string) []byte {
	names := make([][]byte, len(dbs))
	for i, d := range dbs {
		names[i] = ctxStr(105, d)
	}
	return ctxCons(pduSearchRequest,
		ctxInt(13, 0),             // smallSetUpperBound
		ctxInt(14, 1),             // largeSetLowerBound
		ctxInt(15, 0),             // mediumSetPresentNumber
		ctxBool(16, true),         // replaceIndicator
		ctxStr(17, resultSetName), // resultSetName
		ctxCons(18, names...),     // databaseNames
		ctxCons(21, ctxCons(1, uniOID(oidBib1), rpn(words))), // query: type-1
	)
}

// rpn is the RPNStructure of words: one operand, or an AND of the
// structure of all but the last word with the last.
func rpn(words []string) []byte {
	if len(words) == 1 {
		// op [0] Operand → attrTerm [102] IMPLICIT SEQUENCE {
		// attributes [44] IMPLICIT SEQUENCE OF, term general [45] }
		return ctxCons(0, ctxCons(102, ctxCons(44), ctxStr(45, words[0])))
	}
	and := ctxCons(46, ber.TLV(ber.ClassContext, false, 0)) // Operator [46] { and [0] NULL }
	return ctxCons(1, rpn(words[:len(words)-1]), rpn(words[len(words)-1:]), and)
}

// presentRequest asks for n records from start (1-based) in syntax
// (nil: the server's choice) and element set esn ("": none named).
func presentRequest(start, n int, syntax OID, esn string) []byte {
	parts := [][]byte{
		ctxStr(31, resultSetName), // resultSetId
		ctxInt(30, int64(start)),  // resultSetStartPoint
		ctxInt(29, int64(n)),      // numberOfRecordsRequested
	}
	if esn != "" {
		// recordComposition simple [19] ElementSetNames { generic [0] }
		parts = append(parts, ctxCons(19, ctxStr(0, esn)))
	}
	if syntax != nil {
		parts = append(parts, ctxOID(104, syntax)) // preferredRecordSyntax
	}
	return ctxCons(pduPresentRequest, parts...)
}

// closeRequest is Close with reason finished.
func closeRequest() []byte { return ctxCons(pduClose, ctxInt(211, closeFinished)) }

// initResult is what an InitializeResponse says.
type initResult struct {
	accepted bool
	name     string // implementationName
	version  string // implementationVersion
}

// searchResult is what a SearchResponse says.
type searchResult struct {
	count  int64
	status bool
	diag   *diagnostic // a non-surrogate diagnostic
}

// presentResult is what a PresentResponse says.
type presentResult struct {
	returned int64
	next     int64
	status   int64
	records  []record
	diag     *diagnostic
}

// record is one NamePlusRecord: a retrieval record, or a diagnostic.
type record struct {
	db     string
	syntax OID
	data   []byte // octet-aligned contents, or a SUTRS string's octets, or the BER of another single-ASN1-type
	diag   *diagnostic
}

// diagnostic is a DefaultDiagFormat.
type diagnostic struct {
	set       OID
	condition int64
	addinfo   string
}

// String is "bib-1 235 (database does not exist) \"addinfo\"".
func (d diagnostic) String() string {
	set := "bib-1"
	if !d.set.Equal(oidDiagBib1) {
		set = d.set.String()
	}
	s := fmt.Sprintf("%s %d", set, d.condition)
	if m, ok := bib1Meaning[d.condition]; ok && d.set.Equal(oidDiagBib1) {
		s += " (" + m + ")"
	}
	if d.addinfo != "" {
		s += " " + fmt.Sprintf("%q", d.addinfo)
	}
	return s
}

// pduName names a PDU's tag for traces and errors.
func pduName(tag int) string {
	switch tag {
	case pduInitRequest:
		return "InitializeRequest"
	case pduInitResponse:
		return "InitializeResponse"
	case pduSearchRequest:
		return "SearchRequest"
	case pduSearchResponse:
		return "SearchResponse"
	case pduPresentRequest:
		return "PresentRequest"
	case pduPresentResponse:
		return "PresentResponse"
	case pduClose:
		return "Close"
	}
	return fmt.Sprintf("PDU [%d]", tag)
}

// expect checks that n is the PDU want; a Close from the server is its
// refusal, with its diagnosticInformation.
func expect(n *node, want int) error {
	if n.class != ber.ClassContext || !n.constructed {
		return berErrorf("not a Z39.50 PDU")
	}
	if n.tag == pduClose && want != pduClose {
		reason, _ := n.ctx(211).int()
		info, _ := n.ctx(3).str()
		return &closedError{reason: reason, info: string(info)}
	}
	if n.tag != want {
		return berErrorf("%s where %s was due", pduName(n.tag), pduName(want))
	}
	return nil
}

// closedError is a Close the server sent instead of a reply.
type closedError struct {
	reason int64
	info   string
}

func (e *closedError) Error() string {
	s := fmt.Sprintf("the server closed the session (Close reason %d", e.reason)
	if e.info != "" {
		s += ": " + strings.TrimSpace(e.info)
	}
	return s + ")"
}

// decodeInit reads an InitializeResponse.
func decodeInit(n *node) (initResult, error) {
	if err := expect(n, pduInitResponse); err != nil {
		return initResult{}, err
	}
	ok, err := n.ctx(12).bool()
	if err != nil {
		return initResult{}, berErrorf("InitializeResponse without result")
	}
	r := initResult{accepted: ok}
	if s := n.ctx(111); s != nil {
		b, _ := s.str()
		r.name = string(b)
	}
	if s := n.ctx(112); s != nil {
		b, _ := s.str()
		r.version = string(b)
	}
	return r, nil
}

// decodeSearch reads a SearchResponse.
func decodeSearch(n *node) (searchResult, error) {
	if err := expect(n, pduSearchResponse); err != nil {
		return searchResult{}, err
	}
	var r searchResult
	var err error
	if r.count, err = n.ctx(23).int(); err != nil {
		return r, berErrorf("SearchResponse resultCount: %v", err)
	}
	if r.status, err = n.ctx(22).bool(); err != nil {
		return r, berErrorf("SearchResponse searchStatus: %v", err)
	}
	if _, r.diag, err = decodeRecords(n, 0); err != nil {
		return r, err
	}
	return r, nil
}

// decodePresent reads a PresentResponse, at most max records of it.
func decodePresent(n *node, max int) (presentResult, error) {
	if err := expect(n, pduPresentResponse); err != nil {
		return presentResult{}, err
	}
	var r presentResult
	var err error
	if r.returned, err = n.ctx(24).int(); err != nil {
		return r, berErrorf("PresentResponse numberOfRecordsReturned: %v", err)
	}
	if r.next, err = n.ctx(25).int(); err != nil {
		return r, berErrorf("PresentResponse nextResultSetPosition: %v", err)
	}
	if r.status, err = n.ctx(27).int(); err != nil {
		return r, berErrorf("PresentResponse presentStatus: %v", err)
	}
	r.records, r.diag, err = decodeRecords(n, max)
	return r, err
}

// decodeRecords reads the Records of a response: responseRecords [28],
// nonSurrogateDiagnostic [130] or multipleNonSurDiagnostics [205] (of
// which the first is kept). More than max records is an error.
func decodeRecords(n *node, max int) ([]record, *diagnostic, error) {
	if d := n.ctx(130); d != nil {
		diag, err := decodeDiag(d)
		return nil, &diag, err
	}
	if m := n.ctx(205); m != nil {
		if len(m.kids) == 0 {
			return nil, nil, berErrorf("empty multipleNonSurDiagnostics")
		}
		diag, err := decodeDiagRec(&m.kids[0])
		return nil, &diag, err
	}
	rr := n.ctx(28)
	if rr == nil {
		return nil, nil, nil
	}
	if len(rr.kids) > max {
		return nil, nil, berErrorf("%d records where at most %d were asked for", len(rr.kids), max)
	}
	recs := make([]record, 0, len(rr.kids))
	for i := range rr.kids {
		r, err := decodeNamePlusRecord(&rr.kids[i])
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
	}
	return recs, nil, nil
}

// decodeNamePlusRecord reads NamePlusRecord ::= SEQUENCE { name [0]
// IMPLICIT DatabaseName OPTIONAL, record [1] CHOICE { retrievalRecord [1]
// EXTERNAL, surrogateDiagnostic [2] DiagRec, ... } }.
func decodeNamePlusRecord(n *node) (record, error) {
	var r record
	if !n.is(ber.ClassUniversal, ber.TagSequence) {
		return r, berErrorf("NamePlusRecord is not a SEQUENCE")
	}
	if name := n.ctx(0); name != nil {
		b, err := name.str()
		if err != nil {
			return r, err
		}
		r.db = string(b)
	}
	choice := n.ctx(1)
	if choice == nil || len(choice.kids) != 1 {
		return r, berErrorf("NamePlusRecord without a record")
	}
	c := &choice.kids[0]
	switch {
	case c.is(ber.ClassContext, 1): // retrievalRecord [1] EXTERNAL
		if len(c.kids) != 1 || !c.kids[0].is(ber.ClassUniversal, ber.TagExternal) {
			return r, berErrorf("retrievalRecord is not an EXTERNAL")
		}
		return decodeExternal(&c.kids[0], r)
	case c.is(ber.ClassContext, 2): // surrogateDiagnostic [2] DiagRec
		if len(c.kids) != 1 {
			return r, berErrorf("bad surrogateDiagnostic")
		}
		d, err := decodeDiagRec(&c.kids[0])
		r.diag = &d
		return r, err
	}
	return r, berErrorf("record of unsupported form [%d] (fragments are not asked for)", c.tag)
}

// decodeExternal reads EXTERNAL ::= [UNIVERSAL 8] IMPLICIT SEQUENCE {
// direct-reference OID, ..., encoding CHOICE { single-ASN1-type [0] ANY,
// octet-aligned [1] IMPLICIT OCTET STRING, arbitrary [2] IMPLICIT BIT
// STRING } }.
func decodeExternal(e *node, r record) (record, error) {
	ref := e.child(ber.ClassUniversal, ber.TagOID)
	if ref == nil {
		return r, berErrorf("record without a direct-reference (its syntax)")
	}
	oid, err := ref.oid()
	if err != nil {
		return r, err
	}
	r.syntax = oid
	switch {
	case e.ctx(1) != nil:
		r.data, err = e.ctx(1).str()
		return r, err
	case e.ctx(0) != nil:
		single := e.ctx(0)
		if len(single.kids) != 1 {
			return r, berErrorf("bad single-ASN1-type")
		}
		k := &single.kids[0]
		if k.constructed {
			// GRS-1, OPAC and the like: structured ASN.1 this client
			// does not render.
			return r, berErrorf("record in syntax %s as structured ASN.1 is not supported", syntaxName(oid))
		}
		r.data = k.content // SUTRS ::= InternationalString; any other string alike
		return r, nil
	}
	return r, berErrorf("record without an encoding")
}

// decodeDiagRec reads DiagRec ::= CHOICE { defaultFormat
// DefaultDiagFormat, externallyDefined EXTERNAL }: the second is kept as
// an unknown condition.
func decodeDiagRec(n *node) (diagnostic, error) {
	if n.is(ber.ClassUniversal, ber.TagExternal) {
		return diagnostic{condition: -1, addinfo: "diagnostic in an external format"}, nil
	}
	return decodeDiag(n)
}

// decodeDiag reads DefaultDiagFormat ::= SEQUENCE { diagnosticSetId OID,
// condition INTEGER, addinfo CHOICE { VisibleString, InternationalString } }.
func decodeDiag(n *node) (diagnostic, error) {
	var d diagnostic
	set, err := n.child(ber.ClassUniversal, ber.TagOID).oid()
	if err != nil {
		return d, berErrorf("diagnostic without a set")
	}
	d.set = set
	if d.condition, err = n.child(ber.ClassUniversal, ber.TagInteger).int(); err != nil {
		return d, berErrorf("diagnostic without a condition")
	}
	for _, t := range []int{ber.TagVisibleString, ber.TagGeneralString} {
		if a := n.child(ber.ClassUniversal, t); a != nil {
			b, _ := a.str()
			d.addinfo = string(b)
		}
	}
	return d, nil
}
