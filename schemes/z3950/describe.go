package z3950

import (
	"fmt"
	"strings"
)

// The APDUs in words, for -v and --explain.

func describeInit() string {
	return fmt.Sprintf("InitializeRequest protocolVersion=3 options=search,present,namedResultSets preferredMessageSize=%d", maxAPDU)
}

func describeInitResponse(r initResult) string {
	s := fmt.Sprintf("InitializeResponse result=%t", r.accepted)
	if r.name != "" {
		s += fmt.Sprintf(" implementationName=%q", r.name)
	}
	if r.version != "" {
		s += fmt.Sprintf(" implementationVersion=%q", r.version)
	}
	return s
}

func describeSearch(dbs, words []string) string {
	return fmt.Sprintf("SearchRequest databaseNames=%s query=type-1 bib-1 %s", strings.Join(dbs, "+"), pqf(words))
}

// pqf writes the query as yaz-client's PQF would: "@and @and a b c".
func pqf(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = fmt.Sprintf("%q", w)
	}
	return strings.Repeat("@and ", max(len(words)-1, 0)) + strings.Join(quoted, " ")
}

func describePresent(start, n int, syntax OID, esn string) string {
	s := fmt.Sprintf("PresentRequest resultSetStartPoint=%d numberOfRecordsRequested=%d", start, n)
	if esn != "" {
		s += " elementSetName=" + esn
	}
	if syntax != nil {
		s += fmt.Sprintf(" preferredRecordSyntax=%s (%s)", syntaxName(syntax), syntax)
	}
	return s
}
