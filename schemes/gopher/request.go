package gopher

import (
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// fieldBreakers may not appear in a selector or search: a TAB would start
// the next field, a CR or LF would end the request line early, and a NUL
// ends it for a server written in C, which then acts on a selector other
// than the one the URL shows (RFC 1738 §6, transport.LineBreakers).
const fieldBreakers = "\r\n\t\x00"

// LocalName is the item's local name (see nameOf): the selector
// "/text/lf.txt" names "lf.txt", "/docs/" names "docs"; a search or a
// Gopher+ string after the selector is no part of it. It is "" for the
// top menu. schemes.BaseName holds it to the contract of
// schemes.Locator: a "\" or a control character, which a listing's
// names may keep, is not in it.
func (g *URL) LocalName() string { return schemes.BaseName(nameOf(g.Selector)) }

// isMenu says whether the item's reply is a menu: directories (1) and the
// results of a search (7).
func isMenu(t byte) bool { return t == '1' || t == '7' }

// isText says whether the reply is text read as RFC 1436 lines.
func isText(t byte) bool { return t == '0' }

// requestLine returns the bytes sent for g with the given search (nil:
// none) and Gopher+ string (nil: none): `selector[TAB search[TAB plus]]CRLF`.
// The type is never sent. An empty search field is dropped unless the item
// is a search (7) — UMN gopherd reads `sel TAB TAB !` as plain Gopher, and
// RFC 1738's own §3.4.9 example has no empty field. A Gopher+ string that
// already ends in CRLF (a filled form) is sent as written.
//
// A TAB, CR, LF or NUL decoded from the selector or search is refused
// with a KindSafety error; in the Gopher+ string a NUL is refused
// anywhere, and TAB, CR and LF are allowed only in the shape of a form
// submission (`+ TAB 1 CRLF` and its data block).
func requestLine(g *URL, search, plus *string) (string, error) {
	scheme := g.u.Scheme
	if err := transport.CheckChars(scheme, "selector", g.Selector, fieldBreakers); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(g.Selector)
	if search != nil {
		if err := transport.CheckChars(scheme, "search", *search, fieldBreakers); err != nil {
			return "", err
		}
		if *search != "" || g.Type == '7' {
			b.WriteByte('\t')
			b.WriteString(*search)
		}
	}
	if plus != nil {
		if err := checkPlus(scheme, *plus); err != nil {
			return "", err
		}
		b.WriteByte('\t')
		b.WriteString(*plus)
	}
	if plus == nil || !strings.HasSuffix(*plus, "\r\n") {
		b.WriteString("\r\n")
	}
	return b.String(), nil
}

// checkPlus refuses a Gopher+ string holding a NUL (even in a form's data
// block: form answers are text), or a TAB, CR or LF outside the shape of a
// form submission (isSubmission).
func checkPlus(scheme, plus string) error {
	const part = "gopher+ string"
	if err := transport.CheckChars(scheme, part, plus, "\x00"); err != nil {
		return err
	}
	if !strings.ContainsAny(plus, fieldBreakers) || isSubmission(plus) {
		return nil
	}
	err := transport.CheckChars(scheme, part, plus, fieldBreakers)
	err.(*schemes.Error).Msg += " (only a form submission, `+ TAB 1 CRLF` and its data block, may hold TAB, CR or LF)"
	return err
}

// isSubmission says whether a Gopher+ string holding TAB, CR or LF is a
// command with client data as RFC 1738 §3.4.9 writes it: a command without
// TAB or line ends, TAB, the data flag "1", CRLF, then a data block whose
// first line is a `+N`, `+-1` or `+-2` header.
func isSubmission(p string) bool {
	cmd, rest, ok := strings.Cut(p, "\t1\r\n")
	if !ok || cmd == "" || strings.ContainsAny(cmd, fieldBreakers) {
		return false
	}
	hdr, _, ok := strings.Cut(rest, "\r\n")
	if !ok || len(hdr) < 2 || hdr[0] != '+' {
		return false
	}
	_, err := strconv.Atoi(hdr[1:])
	return err == nil
}

// quoteLine writes a request line for Explain and the trace so that TAB, CR
// and LF show: "sel\t+\r\n".
func quoteLine(line string) string { return strconv.Quote(line) }
