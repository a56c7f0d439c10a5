package mailto

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// safeHeaders are the URL header fields copied into the message besides
// To, Cc, Subject and Body. RFC 6068 §3 warns that most header fields in a
// mailto URL are unsafe (a URL should not set Sender, Received or
// Content-Type of mail sent in its user's name); these are the ones it
// names as safe or that only thread the message. Others are ignored.
var safeHeaders = map[string]string{
	"keywords": "Keywords", "comments": "Comments", "in-reply-to": "In-Reply-To", "references": "References",
}

// message is a composed mail: the envelope and the RFC 5322 text.
type message struct {
	from       string   // envelope sender, addr-spec
	recipients []string // To, Cc and Bcc addr-specs, in order, without duplicates
	id         string   // Message-ID with its angle brackets
	ignored    []string // URL header fields left out as unsafe
	text       []byte   // header and body, CRLF line ends
}

// composeInput is what compose needs besides the URL.
type composeInput struct {
	from    string // the From address as configured (may have a display name)
	body    []byte // used when the URL has no body=
	hasBody bool   // body was read (else the URL's body= or empty)
	now     time.Time
	id      string // Message-ID local part; "" means random
}

// compose builds the message for m. Errors are *schemes.Error: KindSafety
// for CR or LF in a header field or address (header injection), KindUsage
// naming every invalid address.
func compose(m *URL, in composeInput) (*message, error) {
	if err := checkHeaderInjection(m, in.from); err != nil {
		return nil, err
	}
	var bad []string
	parse := func(list []string) []*mail.Address {
		var out []*mail.Address
		for _, a := range list {
			pa, err := mail.ParseAddress(a)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%q", a))
				continue
			}
			out = append(out, pa)
		}
		return out
	}
	from := parse([]string{in.from})
	to := parse(m.To())
	var ccList, bccList []string
	for _, h := range m.Headers {
		switch strings.ToLower(h.Name) {
		case "cc":
			l, _ := addressList(h.Value)
			ccList = append(ccList, l...)
		case "bcc":
			l, _ := addressList(h.Value)
			bccList = append(bccList, l...)
		}
	}
	cc, bcc := parse(ccList), parse(bccList)
	if len(bad) > 0 {
		return nil, &schemes.Error{Scheme: "mailto", Phase: "compose", Kind: schemes.KindUsage, Part: "address",
			Msg: "invalid address: " + strings.Join(bad, ", ")}
	}
	msg := &message{from: from[0].Address}
	seen := map[string]bool{}
	for _, l := range [][]*mail.Address{to, cc, bcc} {
		for _, a := range l {
			if k := strings.ToLower(a.Address); !seen[k] {
				seen[k] = true
				msg.recipients = append(msg.recipients, a.Address)
			}
		}
	}
	if len(msg.recipients) == 0 {
		return nil, &schemes.Error{Scheme: "mailto", Phase: "compose", Kind: schemes.KindUsage, Part: "address",
			Msg: "no recipient"}
	}
	local := in.id
	if local == "" {
		var r [12]byte
		rand.Read(r[:])
		local = fmt.Sprintf("%d.%s", in.now.Unix(), hex.EncodeToString(r[:]))
	}
	domain := msg.from[strings.LastIndexByte(msg.from, '@')+1:]
	msg.id = "<" + local + ".urlget@" + domain + ">"

	var b bytes.Buffer
	header := func(name, value string) { b.WriteString(fold(name+": "+value) + "\r\n") }
	header("From", formatAddresses(from))
	if len(to) > 0 {
		header("To", formatAddresses(to))
	}
	if len(cc) > 0 {
		header("Cc", formatAddresses(cc))
	}
	if s, ok := m.Header("subject"); ok {
		header("Subject", encodeWord(s))
	}
	header("Date", in.now.Format(time.RFC1123Z))
	header("Message-ID", msg.id)
	var extra []string
	for _, h := range m.Headers {
		name := strings.ToLower(h.Name)
		switch name {
		case "to", "cc", "bcc", "subject", "body":
			continue
		}
		if canon, ok := safeHeaders[name]; ok {
			header(canon, encodeWord(h.Value))
		} else {
			extra = append(extra, h.Name)
		}
	}
	sort.Strings(extra)
	msg.ignored = extra

	body := in.body
	if !in.hasBody {
		v, _ := m.Header("body")
		body = []byte(v)
	}
	body = crlf(body)
	header("MIME-Version", "1.0")
	switch {
	case isASCII(body) && maxLine(body) <= 998:
		header("Content-Type", "text/plain; charset=us-ascii")
		header("Content-Transfer-Encoding", "7bit")
		b.WriteString("\r\n")
		b.Write(body)
	default:
		// Quoted-printable needs no 8BITMIME from the server and keeps
		// long lines within SMTP's 998-octet limit.
		cs := "utf-8"
		if !utf8.Valid(body) {
			cs = "unknown-8bit" // RFC 1428: we cannot say what it is
		}
		header("Content-Type", "text/plain; charset="+cs)
		header("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		qp := quotedprintable.NewWriter(&b)
		qp.Write(body) // CRLF line breaks stay hard line breaks
		qp.Close()
	}
	if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		b.WriteString("\r\n")
	}
	msg.text = b.Bytes()
	return msg, nil
}

// checkHeaderInjection refuses a CR, LF or NUL in anything that becomes a
// header field or an SMTP command: addresses, header names and values
// (the body excepted, where line breaks are the point).
func checkHeaderInjection(m *URL, from string) error {
	for i, a := range m.Addresses {
		if err := transport.CheckLine("mailto", fmt.Sprintf("address %d", i+1), a); err != nil {
			return headerError(err)
		}
	}
	for _, h := range m.Headers {
		if err := transport.CheckLine("mailto", "header name "+fmt.Sprintf("%q", strings.Map(printable, h.Name)), h.Name); err != nil {
			return headerError(err)
		}
		if strings.EqualFold(h.Name, "body") {
			continue
		}
		if err := transport.CheckLine("mailto", "header "+strings.Map(printable, h.Name), h.Value); err != nil {
			return headerError(err)
		}
	}
	if err := transport.CheckLine("mailto", "From address", from); err != nil {
		return headerError(err)
	}
	return nil
}

// headerError names the danger in CheckLine's error.
func headerError(err error) error {
	se := err.(*schemes.Error)
	se.Phase = "compose"
	se.Msg = strings.Replace(se.Msg, "would inject a command", "would inject a header field", 1)
	return se
}

func printable(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return '?'
	}
	return r
}

// formatAddresses writes addresses for a header field, display names
// encoded as RFC 2047 words when they are not ASCII.
func formatAddresses(l []*mail.Address) string {
	s := make([]string, len(l))
	for i, a := range l {
		if a.Name == "" {
			s[i] = a.Address // not "<a@b>", which Address.String writes
		} else {
			s[i] = a.String()
		}
	}
	return strings.Join(s, ", ")
}

// encodeWord returns s as it may appear in a header field: unchanged when
// ASCII, else as RFC 2047 encoded words (Q encoding, UTF-8).
func encodeWord(s string) string {
	if isASCII([]byte(s)) {
		return s
	}
	return mime.QEncoding.Encode("utf-8", s)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 || c == 0 {
			return false
		}
	}
	return true
}

// crlf normalises line ends to CR LF: a body from a Unix file or a URL's
// body= with %0A alone must still reach SMTP as CR LF lines.
func crlf(b []byte) []byte {
	var out bytes.Buffer
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\r' && i+1 < len(b) && b[i+1] == '\n':
			out.WriteString("\r\n")
			i++
		case c == '\r' || c == '\n':
			out.WriteString("\r\n")
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

func maxLine(b []byte) int {
	longest := 0
	for _, l := range bytes.Split(b, []byte("\r\n")) {
		longest = max(longest, len(l))
	}
	return longest
}

// fold breaks a header line longer than 78 characters at spaces, as RFC
// 5322 §2.2.3 allows, so that it stays within the limits of mail (998
// octets a line); encoded words are separated by spaces, so they fold
// too. A line without spaces is left as it is.
func fold(line string) string {
	const limit = 78
	if len(line) <= limit {
		return line
	}
	var b strings.Builder
	start := 0                             // start of the current physical line in line
	first := strings.Index(line, ": ") + 2 // never fold between the name and its value
	for len(line)-start > limit {
		from := max(start+1, first)
		cut := -1
		if from < start+limit {
			cut = strings.LastIndexByte(line[from:start+limit], ' ')
		}
		if cut < 0 {
			next := strings.IndexByte(line[max(from, start+limit):], ' ')
			if next < 0 {
				break
			}
			cut = max(from, start+limit) + next
		} else {
			cut += from
		}
		b.WriteString(line[start:cut])
		b.WriteString("\r\n")
		start = cut // the space begins the continuation line
	}
	b.WriteString(line[start:])
	return b.String()
}
