package http

import (
	"bytes"
	"io"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// FormType is the Content-Type of a body of URL-encoded fields, curl's
// -d: application/x-www-form-urlencoded (HTML's form encoding).
const FormType = "application/x-www-form-urlencoded"

// The spellings of the data option (curl's -d family), each reading its
// values its own way (addData).
const (
	dataText      = "data"           // @FILE's text without CR and LF
	dataASCII     = "data-ascii"     // the same as data
	dataBinary    = "data-binary"    // @FILE sent as it is
	dataRaw       = "data-raw"       // no @FILE: the value as it is
	dataURLEncode = "data-urlencode" // [NAME=]CONTENT or [NAME]@FILE, the content URL-encoded
)

// dataBody is the body of the data option's values, as curl's -d family
// makes it: each value read as its spelling says, all joined with "&"
// in the order given, sent as FormType. @- reads stdin.
func dataBody(values []schemes.Given, stdin io.Reader) (*Body, error) {
	b := &Body{Type: FormType}
	for i, g := range values {
		if i > 0 {
			b.add([]byte("&"))
		}
		if err := b.addData(g.As, g.Value, stdin); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// addData appends one value given as as:
//
//   - data, data-ascii: the text; @FILE (@- stdin) the file's, every CR
//     and LF dropped and cut at a NUL byte, as curl reads "text";
//   - data-binary: the same, but @FILE's bytes are sent as they are (a
//     regular file read at each request, never held);
//   - data-raw: the text, a leading @ included;
//   - data-urlencode: see urlEncoded.
func (b *Body) addData(as, arg string, stdin io.Reader) error {
	switch as {
	case dataURLEncode:
		enc, err := urlEncoded(arg, stdin)
		if err != nil {
			return err
		}
		b.add([]byte(enc))
		return nil
	case dataRaw:
		b.add([]byte(arg))
		return nil
	}
	name, isFile := strings.CutPrefix(arg, "@")
	if !isFile {
		b.add([]byte(arg))
		return nil
	}
	if as == dataBinary {
		if name == "-" {
			data, err := readBounded(stdin, "standard input")
			if err != nil {
				return err
			}
			b.add(data)
			return nil
		}
		return b.addFile(name)
	}
	data, err := readNamed(name, stdin)
	if err != nil {
		return err
	}
	b.add(textOf(data))
	return nil
}

// readNamed reads the file named as curl's @ names one: "-" is stdin.
// What it reads is held (MaxHeld).
func readNamed(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return readBounded(stdin, "standard input")
	}
	return readHeld(name)
}

// textOf is data as curl's -d @FILE reads it: without its CR and LF
// bytes (a file's lines join), up to a NUL byte (curl keeps it as a C
// string).
func textOf(data []byte) []byte {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	out := make([]byte, 0, len(data))
	for _, c := range data {
		if c != '\r' && c != '\n' {
			out = append(out, c)
		}
	}
	return out
}

// urlEncoded is what curl's --data-urlencode makes of arg. The first
// "=" splits NAME=CONTENT; without one, the first "@" splits
// NAME@FILE, whose content is the file's (@- stdin), every byte; with
// neither, all of arg is the content. The content is URL-encoded
// (urlEncode); NAME is sent as it is, followed by "=" when not empty:
// "=a b" is "a+b", "q=a b" is "q=a+b", "@f" the file's content encoded.
func urlEncoded(arg string, stdin io.Reader) (string, error) {
	name, content, sep := arg, "", byte(0)
	if i := strings.IndexByte(arg, '='); i >= 0 {
		name, content, sep = arg[:i], arg[i+1:], '='
	} else if i := strings.IndexByte(arg, '@'); i >= 0 {
		name, content, sep = arg[:i], arg[i+1:], '@'
	} else {
		name, content = "", arg
	}
	data := []byte(content)
	if sep == '@' {
		var err error
		if data, err = readNamed(content, stdin); err != nil {
			return "", err
		}
	}
	enc := urlEncode(data)
	if name == "" {
		return enc, nil
	}
	return name + "=" + enc, nil
}

// urlEncode is curl_easy_escape with its --data-urlencode touch: every
// byte but the unreserved ones (RFC 3986 §2.3: letters, digits and
// "-._~") as %XX in upper-case hex, and a space as "+", as a form
// encodes it.
func urlEncode(data []byte) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(data))
	for _, c := range data {
		switch {
		case c == ' ':
			b.WriteByte('+')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
