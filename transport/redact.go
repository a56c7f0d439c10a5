package transport

import (
	"strings"

	"github.com/urlget/urlget/schemes"
)

// redactSentLocked hides the credentials in a line the client sends, by the
// line's shape, and follows SASL exchanges: after "AUTH <mech>" every client
// line is a credential until the server answers with something other than a
// continuation.
func (t *Trace) redactSentLocked(line string) string {
	if t.sasl {
		return schemes.Redacted
	}
	fields := strings.Fields(line)
	upper := func(i int) string {
		if i < len(fields) {
			return strings.ToUpper(fields[i])
		}
		return ""
	}
	switch upper(0) {
	case "PASS", "ACCT": // FTP (RFC 959), POP3 (RFC 1939)
		return keepWords(line, 1)
	case "AUTH": // SMTP (RFC 4954), POP3 (RFC 5034); FTP "AUTH TLS" is no secret
		if m := upper(1); m != "TLS" && m != "SSL" && m != "" {
			t.sasl = true
			return keepWords(line, 2)
		}
	case "AUTHINFO": // NNTP (RFC 4643)
		switch upper(1) {
		case "PASS":
			return keepWords(line, 2)
		case "SASL":
			t.sasl = true
			return keepWords(line, 3)
		case "SIMPLE": // the next line is "user password"
			t.sasl = true
		}
	}
	return line
}

// receivedLocked ends a SASL exchange unless the server's reply asks for
// more: "334" (SMTP), "383" and "381" (NNTP), "+" (POP3).
func (t *Trace) receivedLocked(line string) {
	if !t.sasl {
		return
	}
	for _, p := range []string{"334", "383", "381", "350", "+"} {
		if strings.HasPrefix(line, p) {
			return
		}
	}
	t.sasl = false
}

// keepWords keeps the first n words of line and replaces the rest, if any,
// with "****".
func keepWords(line string, n int) string {
	rest := line
	for range n {
		rest = strings.TrimLeft(rest, " \t")
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return line
		}
		rest = rest[i:]
	}
	if strings.TrimSpace(rest) == "" {
		return line
	}
	return line[:len(line)-len(rest)] + " " + schemes.Redacted
}

// redactHeaders hides the credentials of HTTP authorization headers,
// keeping the auth scheme ("Authorization: Basic ****").
func redactHeaders(line string) string {
	name, value, ok := strings.Cut(line, ":")
	if !ok {
		return line
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "authorization", "proxy-authorization":
	default:
		return line
	}
	value = strings.TrimSpace(value)
	if value == "" {
		return line
	}
	if scheme, _, ok := strings.Cut(value, " "); ok {
		return name + ": " + scheme + " " + schemes.Redacted
	}
	return name + ": " + schemes.Redacted
}

// redactURLs hides the password of every URL in line ("//user:pw@host").
func redactURLs(line string) string {
	if !strings.Contains(line, "//") {
		return line
	}
	var b strings.Builder
	for _, field := range strings.SplitAfter(line, " ") {
		for from := 0; ; {
			j := strings.Index(field[from:], "//")
			if j < 0 {
				break
			}
			p := from + j
			field = field[:p] + schemes.RedactString(field[p:])
			from = p + 2
		}
		b.WriteString(field)
	}
	return b.String()
}
