// Package mailto holds the typed value of mailto URLs: RFC 1738 §3.5's
// mailto:<addr-spec>, read with the extensions of RFC 6068 — several
// comma-separated addresses and "?name=value&..." header fields:
//
//	mailto:joe@example.com,bob@example.com?subject=hi&body=hello
//
// Parsing (URL, Parse) is pure. A mailto URL designates a mailbox, not a
// data object (RFC 1738 §3.5), so the Handler fits it into the retrieval
// contract by doing what opening it means: Fetch composes the message the
// URL describes and submits it by SMTP, and returns a Response with an
// empty Body — a sent message has no content to show; its Message-ID is
// in the -v trace. With DryRun nothing is sent and the Body is the
// composed message, which the urlget command prints on stdout.
package mailto

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// addressReserved are the characters written %XX inside an address: ","
// separates addresses and "?" starts the header fields (RFC 6068). An
// RFC 1738 address with a literal "?" must therefore be written %3F.
const addressReserved = ",?"

// hfieldReserved are the characters written %XX inside a header name or
// value: "&" separates fields, "=" separates name and value, "?" starts
// them, and "+" reads as a space to software that takes the query for a
// form submission (urlget reads it as a plus, so "+" and "%2B" are the
// same to it; the canonical form writes the spelling every reader agrees
// on). "," stays literal: it separates the addresses of to, cc and bcc.
const hfieldReserved = "&=?+"

// Header is one "name=value" header field after the "?", decoded.
type Header = schemes.NameValue

// URL is a parsed mailto URL. It has no host or authority.
//
// Every value is decoded and kept as raw bytes: a decoded CR or LF (from
// "%0D%0A") stays in the address or header value — it would let a URL
// inject header lines, so the handler refuses it at access time (exit 7).
type URL struct {
	// Addresses are the addresses before the "?", decoded, in order; each
	// has an "@" with text on both sides. It may be empty when a "to"
	// header names the recipients (mailto:?to=joe@example.com).
	Addresses []string
	// Headers are the "?name=value&..." fields in the order written, names
	// and values decoded ("subject", "body", "cc", "In-Reply-To", ...).
	Headers []Header

	u *schemes.URL
}

var (
	_ schemes.Locator  = (*URL)(nil)
	_ schemes.Composer = (*URL)(nil)
)

// Parse reads a generic mailto URL. Errors are *schemes.Error of KindUsage
// naming the part at fault: "scheme", "address" or "header".
//
// Addresses are checked loosely: an "@" with a non-empty local part and
// domain, in the addresses before the "?" and in the to, cc and bcc
// fields; there must be at least one. A "//" after "mailto:" is an error:
// mailto has no authority, and the generic parser would have taken the
// address apart as user and host. Empty header fields ("?&subject=x", a
// trailing "?") are skipped; a field without "=" or with an empty name is
// an error. A literal "=" in a value is kept as data.
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "mailto" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not mailto", u.Scheme))
	}
	if u.Authority {
		return nil, u.SyntaxError("address", `a mailto URL has no "//" (write mailto:user@domain)`)
	}
	toText, hText, _ := strings.Cut(u.Opaque, "?")
	m := &URL{u: u}
	if toText != "" {
		for _, a := range strings.Split(toText, ",") {
			d, err := schemes.Unescape(a)
			if err != nil || !validAddress(d) {
				return nil, badAddress(u, a)
			}
			m.Addresses = append(m.Addresses, d)
		}
	}
	recipients := len(m.Addresses)
	for _, h := range strings.Split(hText, "&") {
		if h == "" {
			continue
		}
		nameText, valueText, ok := strings.Cut(h, "=")
		if !ok || nameText == "" {
			return nil, u.SyntaxError("header", fmt.Sprintf("bad header field %q (want name=value)", h))
		}
		name, err1 := schemes.Unescape(nameText)
		value, err2 := schemes.Unescape(valueText)
		if err1 != nil || err2 != nil {
			return nil, u.SyntaxError("header", fmt.Sprintf("bad header field %q: malformed escape", h))
		}
		if isAddressHeader(name) {
			list, ok := addressList(value)
			if !ok {
				return nil, badAddress(u, value)
			}
			recipients += len(list)
		}
		m.Headers = append(m.Headers, Header{Name: name, Value: value})
	}
	if recipients == 0 {
		return nil, u.SyntaxError("address", "missing address (want mailto:user@domain)")
	}
	return m, nil
}

// validAddress is the loose check of an addr-spec: an "@" (the last one,
// since a quoted local part may hold more) with text on both sides.
func validAddress(a string) bool {
	at := strings.LastIndexByte(a, '@')
	return at > 0 && at < len(a)-1
}

func badAddress(u *schemes.URL, a string) *schemes.Error {
	return u.SyntaxError("address", fmt.Sprintf("bad address %q (want local-part@domain)", a))
}

// isAddressHeader reports whether a header field holds addresses that mail
// is sent to: to, cc and bcc, in any letter case.
func isAddressHeader(name string) bool {
	return strings.EqualFold(name, "to") || strings.EqualFold(name, "cc") || strings.EqualFold(name, "bcc")
}

// addressList splits the decoded value of a to, cc or bcc field at ","
// and trims blanks around each address. An empty value has no addresses;
// otherwise every address must pass validAddress.
func addressList(value string) ([]string, bool) {
	if value == "" {
		return nil, true
	}
	var list []string
	for _, a := range strings.Split(value, ",") {
		a = strings.Trim(a, " \t")
		if !validAddress(a) {
			return nil, false
		}
		list = append(list, a)
	}
	return list, true
}

// To returns the primary recipients: Addresses, then the addresses of
// every "to" header field (RFC 6068 §2 adds those to the ones before "?").
func (m *URL) To() []string {
	to := append([]string{}, m.Addresses...)
	for _, h := range m.Headers {
		if strings.EqualFold(h.Name, "to") {
			list, _ := addressList(h.Value)
			to = append(to, list...)
		}
	}
	return to
}

// Header returns the value of the first header field whose name equals
// name without regard to ASCII case, and whether there is one.
func (m *URL) Header(name string) (string, bool) {
	for _, h := range m.Headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value, true
		}
	}
	return "", false
}

// Generic returns the scheme-independent parts: only the scheme and
// fragment, since a mailto URL has no host.
func (m *URL) Generic() *schemes.URL { return m.u }

// String formats the URL in canonical form (schemes.FormatLocator) from
// its typed fields, each re-escaped from its decoded value: "," and "?"
// escaped in addresses, "&", "=", "?" and "+" in header names and values,
// nothing else but what must be. Empty header fields ("?&subject=x", a
// trailing "?") are not written: Parse skips them. Letter case is kept:
// header names and addresses appear in the message as written.
func (m *URL) String() string { return schemes.FormatLocator(m.u, false, m.opaque()) }

// opaque is the canonical text after "mailto:".
func (m *URL) opaque() string {
	var b strings.Builder
	for i, a := range m.Addresses {
		if i > 0 {
			b.WriteByte(',')
		}
		a = schemes.Escape(a, addressReserved)
		if i == 0 && strings.HasPrefix(a, "//") {
			// "mailto://" would read as an authority; "%2F/" is the same
			// address, since mailto reserves no "/".
			a = "%2F" + a[1:]
		}
		b.WriteString(a)
	}
	for i, h := range m.Headers {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(schemes.Escape(h.Name, hfieldReserved))
		b.WriteByte('=')
		b.WriteString(schemes.Escape(h.Value, hfieldReserved))
	}
	return b.String()
}

// Redacted is String: a mailto URL has no password.
func (m *URL) Redacted() string { return m.String() }

// LocalName is "": a mailto URL sends a message, it retrieves nothing a
// file could hold.
func (m *URL) LocalName() string { return "" }

// Fields is the JSON object printed by `urlget parse`:
//
//	{"address": "a@x,b@y", "to": ["a@x", "b@y", ...], "headers": {"subject": "hi", ...}}
//
// address is the decoded addresses before the "?" joined with ","; to is
// To(); headers keep the order written, and a name written more than once
// maps to an array of its values, so nothing is lost.
func (m *URL) Fields() any {
	return mailtoFields{Address: strings.Join(m.Addresses, ","), To: m.To(), Headers: schemes.OrderedObject(m.Headers)}
}

type mailtoFields struct {
	Address string                `json:"address"`
	To      []string              `json:"to"`
	Headers schemes.OrderedObject `json:"headers"`
}

// WithMessage is the URL that sends subject and body to m's recipients
// (schemes.Composer): m's header fields, its subject and body replaced.
func (m *URL) WithMessage(subject, body string) (schemes.Locator, error) {
	n := &URL{Addresses: m.Addresses, u: m.u}
	for _, h := range m.Headers {
		if !strings.EqualFold(h.Name, "subject") && !strings.EqualFold(h.Name, "body") {
			n.Headers = append(n.Headers, h)
		}
	}
	if subject != "" {
		n.Headers = append(n.Headers, Header{Name: "subject", Value: subject})
	}
	n.Headers = append(n.Headers, Header{Name: "body", Value: body})
	pu, err := schemes.Parse(n.String())
	if err != nil {
		return nil, err
	}
	return Parse(pu)
}

// Draft is the message m describes (schemes.Composer): its primary
// recipients (To), the addresses of its cc and bcc fields, and its first
// subject and body fields, for a form to start from.
func (m *URL) Draft() schemes.Draft {
	d := schemes.Draft{To: m.To()}
	for _, h := range m.Headers {
		list, _ := addressList(h.Value)
		switch {
		case strings.EqualFold(h.Name, "cc"):
			d.Cc = append(d.Cc, list...)
		case strings.EqualFold(h.Name, "bcc"):
			d.Bcc = append(d.Bcc, list...)
		}
	}
	d.Subject, _ = m.Header("subject")
	d.Body, _ = m.Header("body")
	return d
}
