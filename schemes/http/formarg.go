package http

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The spellings of the form-data option (curl's -F and --form-string).
const (
	formField  = "form-data"   // NAME=VALUE, @FILE, <FILE, ;type= and ;filename=
	formString = "form-string" // NAME=VALUE, the value as it is
)

// formFieldOf reads one value of the form-data option as curl's -F reads
// it (literal: --form-string, the value as it is):
//
//   - NAME=VALUE: the value, leading and trailing blanks dropped unless
//     it is "quoted" (\" and \\ inside);
//   - NAME=@FILE: the file, with its base name as filename (@- stdin,
//     filename "-"); a Content-Type guessed from the name (curl's short
//     list), else application/octet-stream (none for stdin);
//   - NAME=<FILE: the file's content as the value, no filename;
//   - each may end in ;type=TYPE and ;filename=NAME (not <FILE's), a
//     name "quoted" when it holds ';' or ','.
//
// A text/plain guessed for a part without a filename is not sent, as
// curl leaves it out. What curl skips with a warning (an unknown
// ;param, text after a quoted word) and what urlget does not make
// (;headers=, ;encoder=, several files in one part, nested parts) is
// an error here: a part silently cut would send other data than meant.
func formFieldOf(arg string, literal bool, stdin io.Reader) (FormField, error) {
	name, content, ok := strings.Cut(arg, "=")
	if !ok {
		return FormField{}, errors.New("want NAME=CONTENT")
	}
	f := FormField{Name: name}
	if literal {
		f.Value = []byte(content)
		return f, nil
	}
	switch {
	case strings.HasPrefix(content, "(") || content == ")":
		return FormField{}, errors.New(`nested multipart parts are not supported; quote a value that starts with "(": NAME="(...)"`)
	case strings.HasPrefix(content, "@"):
		spec, err := parseFormSpec(content[1:], ',')
		if err != nil {
			return FormField{}, err
		}
		if spec.more {
			return FormField{}, errors.New(`several files in one part (multipart/mixed) are not supported; quote a file name that holds ',' ("@\"a,b\"")`)
		}
		return spec.fileField(f, stdin)
	case strings.HasPrefix(content, "<"):
		spec, err := parseFormSpec(content[1:], 0)
		if err != nil {
			return FormField{}, err
		}
		if spec.filename != "" {
			return FormField{}, errors.New(";filename= is for a file sent as a file (NAME=@FILE), not for NAME=<FILE")
		}
		if spec.word == "-" {
			if f.Value, err = readBounded(stdin, "standard input"); err != nil {
				return FormField{}, err
			}
		} else {
			if _, err := os.Stat(spec.word); err != nil {
				return FormField{}, err
			}
			f.File = spec.word
		}
		f.Type = spec.partType(guessType(spec.word), false)
		return f, nil
	}
	spec, err := parseFormSpec(content, 0)
	if err != nil {
		return FormField{}, err
	}
	f.Value, f.Filename = []byte(spec.word), spec.filename
	f.Type = spec.partType(guessType(spec.filename), f.Filename != "")
	return f, nil
}

// fileField is the part of a NAME=@FILE.
func (s formSpec) fileField(f FormField, stdin io.Reader) (FormField, error) {
	f.Filename = s.filename
	if s.word == "-" {
		data, err := readBounded(stdin, "standard input")
		if err != nil {
			return FormField{}, err
		}
		if f.Filename == "" {
			f.Filename = "-"
		}
		f.Value = data
		f.Type = s.partType(guessType(f.Filename), true)
		return f, nil
	}
	if _, err := os.Stat(s.word); err != nil {
		return FormField{}, err
	}
	f.File = s.word
	if f.Filename == "" {
		f.Filename = filepath.Base(s.word)
	}
	guess := guessType(f.Filename)
	if guess == "" {
		guess = guessType(s.word)
	}
	if guess == "" {
		guess = "application/octet-stream"
	}
	f.Type = s.partType(guess, true)
	return f, nil
}

// formSpec is what the content of a -F value says: its word (the value,
// or a file's name) and its parameters.
type formSpec struct {
	word     string
	typ      string // as given with ;type=, "" for none
	filename string
	more     bool // a ',' ended the word: another file follows
}

// partType is the part's Content-Type: the one given, else guess, left
// out when it is text/plain and the part has no filename (curl's rule).
func (s formSpec) partType(guess string, hasFilename bool) string {
	if s.typ != "" {
		return s.typ
	}
	if !hasFilename && isPlainText(guess) {
		return ""
	}
	return guess
}

// isPlainText reports whether t is text/plain, with or without
// parameters.
func isPlainText(t string) bool {
	rest, ok := cutPrefixFold(t, "text/plain")
	return ok && (rest == "" || strings.ContainsRune("\t\r\n ;", rune(rest[0])))
}

// parseFormSpec reads a -F value's content as curl's get_param_part
// does: blanks before the word skipped, the word "quoted" or running to
// the next ';' (or end, a byte that ends a file's name: ','), blanks
// after an unquoted word dropped; then ;type= (running to a character
// that ends a media type, and taking in the ;params that follow it:
// ;type=text/plain;charset=utf-8) and ;filename= (a word as above).
func parseFormSpec(s string, end byte) (formSpec, error) {
	var spec formSpec
	i := skipBlanks(s, 0)
	word, i, err := paramWord(s, i, end)
	if err != nil {
		return spec, err
	}
	spec.word = word
	typeStart, typeEnd := -1, -1
	for i < len(s) && s[i] == ';' {
		i = skipBlanks(s, i+1)
		rest := s[i:]
		switch {
		case typeStart < 0 && hasPrefixFold(rest, "type="):
			typeStart = skipBlanks(s, i+len("type="))
			typeEnd = typeStart + strings.IndexAny(s[typeStart:]+"\x00", "()<>@,;:\\\"[]?=\r\n \x00")
			i = typeEnd
		case hasPrefixFold(rest, "filename="):
			if typeStart >= 0 {
				spec.typ, typeStart = s[typeStart:typeEnd], -2 // ended: a later param is unknown
			}
			if spec.filename, i, err = paramWord(s, skipBlanks(s, i+len("filename=")), end); err != nil {
				return spec, err
			}
		case hasPrefixFold(rest, "headers="), hasPrefixFold(rest, "encoder="):
			name, _, _ := strings.Cut(rest, "=")
			return spec, fmt.Errorf(";%s= is not supported", name)
		case typeStart >= 0:
			// A parameter of the media type (curl: "part of content type").
			for ; i < len(s) && s[i] != ';' && s[i] != end; i++ {
				if s[i] != ' ' && s[i] != '\t' {
					typeEnd = i + 1
				}
			}
		default:
			p, _, _ := strings.Cut(rest, ";")
			return spec, fmt.Errorf("unknown ;%s (quote a value that holds ';': NAME=\"a;b\")", p)
		}
	}
	if typeStart >= 0 {
		spec.typ = s[typeStart:typeEnd]
	}
	switch {
	case i < len(s) && end != 0 && s[i] == end:
		spec.more = true
	case i < len(s):
		return spec, fmt.Errorf("unexpected %q after %q", s[i:], s[:i])
	}
	return spec, nil
}

// paramWord is curl's get_param_word: at s[i] a "quoted" word (with \"
// and \\ inside; a word with no closing quote is read as unquoted),
// after which only blanks may come before the next ';' or end; else the
// bytes up to the next ';' or end, trailing blanks dropped. next is the
// index of the byte that ended it.
func paramWord(s string, i int, end byte) (word string, next int, err error) {
	if i < len(s) && s[i] == '"' {
		var b strings.Builder
		for j := i + 1; j < len(s); j++ {
			switch {
			case s[j] == '\\' && j+1 < len(s) && (s[j+1] == '\\' || s[j+1] == '"'):
				j++
				b.WriteByte(s[j])
			case s[j] == '"':
				k := skipBlanks(s, j+1)
				if k < len(s) && s[k] != ';' && (end == 0 || s[k] != end) {
					return "", 0, fmt.Errorf("text after the quoted %q", s[i:j+1])
				}
				return b.String(), k, nil
			default:
				b.WriteByte(s[j])
			}
		}
	}
	k := i
	for k < len(s) && s[k] != ';' && (end == 0 || s[k] != end) {
		k++
	}
	return strings.TrimRight(s[i:k], " \t"), k, nil
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func hasPrefixFold(s, prefix string) bool {
	_, ok := cutPrefixFold(s, prefix)
	return ok
}

// cutPrefixFold is strings.CutPrefix, ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
