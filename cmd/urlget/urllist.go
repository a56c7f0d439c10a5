package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// urlList reads the URLs of an -i file one at a time: one a line, blank
// lines and lines starting with "#" skipped, a line over maxURLLine an
// error naming its number. -Z reads it as it goes, so that a list of any
// length takes no more memory than its longest line.
type urlList struct {
	name   string
	sc     *bufio.Scanner
	closer io.Closer // the file; nil for stdin
	line   int
	failed error
	// regular is true for a regular file, whose next line is read
	// without waiting on a writer (a pipe's or stdin's could be).
	regular bool
}

// openURLList opens the -i file name ("-": stdin).
func openURLList(name string, stdin io.Reader) (*urlList, error) {
	l := &urlList{name: name}
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the message names the file
			}
			return nil, fmt.Errorf("-i %s: cannot read it: %w", name, err)
		}
		l.closer, r = f, f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			l.regular = true
		}
	}
	l.sc = bufio.NewScanner(r)
	l.sc.Buffer(make([]byte, 64*1024), maxURLLine)
	return l, nil
}

// next is the next URL and where it was ("-i FILE, line N"); ok is false
// at the end of the list or at an error (err).
func (l *urlList) next() (raw, where string, ok bool) {
	for l.failed == nil && l.sc.Scan() {
		l.line++
		text := strings.TrimSpace(l.sc.Text())
		if text != "" && !strings.HasPrefix(text, "#") {
			return text, fmt.Sprintf("-i %s, line %d", l.name, l.line), true
		}
	}
	return "", "", false
}

// err is why the list ended early, nil at its end.
func (l *urlList) err() error {
	switch err := l.sc.Err(); {
	case l.failed != nil:
		return l.failed
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("-i %s: line %d is longer than %s; want one URL a line", l.name, l.line+1, formatBytes(maxURLLine))
	case err != nil:
		return fmt.Errorf("-i %s: %w", l.name, err)
	}
	return nil
}

// close closes the file.
func (l *urlList) close() {
	if l.closer != nil {
		l.closer.Close()
	}
}

// streamsList says whether the -i file is read as the run goes (-Z)
// rather than whole before it starts: always with -Z, unless a scheme's
// flags must see every URL before the first is retrieved (a declaration's
// Check that refuses an empty set, such as --form, which needs a +ASK URL).
func (o *options) streamsList() bool {
	if !o.parallel || o.inputFile == "" || o.explain {
		return false
	}
	return o.schemes.check(o.schemeOptions(), nil) == nil
}
