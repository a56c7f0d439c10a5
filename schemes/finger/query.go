package finger

import "strings"

// Protocol constants of RFC 1288.
const (
	// DefaultPort is finger's TCP port (RFC 1288 §2.1).
	DefaultPort = 79
	// verboseToken asks for the long form ({W}, RFC 1288 §2.3).
	verboseToken = "/W"
	// crlf ends the query line ({C}, RFC 1288 §2.3).
	crlf = "\r\n"
)

// Query returns the RFC 1288 query line for f, CRLF included:
//
//	{Q1} ::= [{W}|{W}{S}{U}]{C}
//	{Q2} ::= [{W}{S}][{U}]{H}{C}
//
// Parse guarantees every token is printable ASCII without spaces, so the
// line holds exactly the tokens the URL shows.
func (f *URL) Query() string {
	var b strings.Builder
	if f.Verbose {
		b.WriteString(verboseToken)
		if f.User != "" || len(f.Forward) > 0 {
			b.WriteByte(' ')
		}
	}
	b.WriteString(f.User)
	for _, h := range f.Forward {
		b.WriteByte('@')
		b.WriteString(h)
	}
	b.WriteString(crlf)
	return b.String()
}
