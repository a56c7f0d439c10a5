package http

import (
	"crypto/rand"
	"fmt"
	"strings"
)

// FormField is one part of a multipart/form-data body (RFC 7578), as
// curl's -F makes it: what is given is what is sent.
type FormField struct {
	// Name is the field's name; "" sends none.
	Name string
	// Value is the part's content, when File is "".
	Value []byte
	// File names a file whose content is the part's: a regular file is
	// read at each request (never held), anything else read when the
	// body is made.
	File string
	// Filename is the part's filename parameter; "" sends none.
	Filename string
	// Type is the part's Content-Type; "" sends none.
	Type string
}

// MultipartBody returns a multipart/form-data body of fields, in order,
// laid out as curl lays it out (a boundary of 24 dashes and 22 random
// letters and digits; each part's Content-Disposition with its name and
// filename, '"', CR and LF in them as %22, %0D and %0A, as HTML's form
// submission escapes them; then its Content-Type). A Type holding a
// control character is refused: it would end the part's header.
func MultipartBody(fields []FormField) (*Body, error) {
	boundary := strings.Repeat("-", 24) + rand.Text()[:22]
	b := &Body{Type: "multipart/form-data; boundary=" + boundary}
	for _, f := range fields {
		if strings.ContainsFunc(f.Type, isControl) {
			return nil, fmt.Errorf("form field %q: Content-Type %q holds a control character", f.Name, f.Type)
		}
		var head strings.Builder
		head.WriteString("--" + boundary + "\r\nContent-Disposition: form-data")
		if f.Name != "" {
			head.WriteString(`; name="` + formEscape(f.Name) + `"`)
		}
		if f.Filename != "" {
			head.WriteString(`; filename="` + formEscape(f.Filename) + `"`)
		}
		head.WriteString("\r\n")
		if f.Type != "" {
			head.WriteString("Content-Type: " + f.Type + "\r\n")
		}
		head.WriteString("\r\n")
		b.add([]byte(head.String()))
		if f.File != "" {
			if err := b.addFile(f.File); err != nil {
				return nil, err
			}
		} else {
			b.add(f.Value)
		}
		b.add([]byte("\r\n"))
	}
	b.add([]byte("--" + boundary + "--\r\n"))
	return b, nil
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f }

// formEscape escapes a name or filename in a part's Content-Disposition
// as curl and browsers do (HTML's multipart/form-data encoding).
var formEscape = strings.NewReplacer(`"`, "%22", "\r", "%0D", "\n", "%0A").Replace

// guessedTypes are curl's guesses of a file's Content-Type from its
// name's ending (any case), in curl's order.
var guessedTypes = []struct{ ext, typ string }{
	{".gif", "image/gif"}, {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"}, {".png", "image/png"},
	{".svg", "image/svg+xml"}, {".txt", "text/plain"}, {".htm", "text/html"}, {".html", "text/html"},
	{".pdf", "application/pdf"}, {".xml", "application/xml"},
}

// guessType is curl's guess for a file named name, "" for none.
func guessType(name string) string {
	for _, g := range guessedTypes {
		if len(name) >= len(g.ext) && strings.EqualFold(name[len(name)-len(g.ext):], g.ext) {
			return g.typ
		}
	}
	return ""
}
