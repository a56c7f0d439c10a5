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
// none) and Gopher+ string (nil: none): `selector[TAB search[TAB plus]]CRLF`,
// always one line. The type is never sent. An empty search field is
// dropped unless the item is a search (7) — UMN gopherd reads
// `sel TAB TAB !` as plain Gopher, and RFC 1738's own §3.4.9 example has
// no empty field.
//
// Every field comes from a URL, which a server (a redirect, a menu) or a
// web page (through the gateway) may have chosen, so a TAB, CR, LF or NUL
// decoded from any of them is refused with a KindSafety error before
// anything is dialed: it would let the URL write lines of its choosing to
// whatever service listens on the port. That holds for RFC 1738 §3.4.9's
// URL of a filled form too; a form's data block is built only from the
// answers a person gave (formSubmission).
func requestLine(g *URL, search, plus *string) (string, error) {
	head, err := requestHead(g, search, plus)
	if err != nil {
		return "", err
	}
	return head + "\r\n", nil
}

// requestHead is requestLine without its CRLF: the item's fields, each
// checked for the characters that would end a field or the line.
func requestHead(g *URL, search, plus *string) (string, error) {
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
	return b.String(), nil
}

// checkPlus refuses a URL's Gopher+ string that holds a TAB, CR, LF or
// NUL, saying why: the only Gopher+ request with more than one line is a
// form submission, and its data block comes from answers, not from a URL.
func checkPlus(scheme, plus string) error {
	err := transport.CheckChars(scheme, "gopher+ string", plus, fieldBreakers)
	if err != nil {
		err.(*schemes.Error).Msg += " (a Gopher+ data block is only sent from a form's answers: give the form's URL, sel%09%09?, and its answers)"
	}
	return err
}

// defaultView is the Gopher+ command that asks for an item's default view
// with a Gopher+ header (its end told by `+N`, `+-1` or `+-2`); a form
// submission sends it too, then the data flag "1" and the data block (RFC
// 1738 §3.4.9, Gopher+ §2.4).
const defaultView = "+"

// formSubmission returns the request that submits g's form: g's selector
// and search (checked as requestLine checks them), the command "+", TAB,
// the data flag "1", CRLF, then the data block built from vals, one value
// for each of qs (dataBlock). It is the one request whose bytes hold line
// ends before its last, and they come from the answers, never from the
// URL.
func formSubmission(g *URL, search *string, qs []question, vals []string) (string, error) {
	block, err := dataBlock(g.u.Scheme, qs, vals)
	if err != nil {
		return "", err
	}
	return submission(g, search, block)
}

// submission is the request line of a form submission with the given data
// block: shared by formSubmission and Explain, which shows a placeholder
// for the answers.
func submission(g *URL, search *string, block string) (string, error) {
	cmd := defaultView
	head, err := requestHead(g, search, &cmd)
	if err != nil {
		return "", err
	}
	return head + "\t1\r\n" + block, nil
}

// quoteLine writes a request line for Explain and the trace so that TAB, CR
// and LF show: "sel\t+\r\n".
func quoteLine(line string) string { return strconv.Quote(line) }
