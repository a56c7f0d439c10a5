package dirsrv

import (
	"bytes"
	"errors"
)

// This file is the server's own reading and writing of Prospero text
// (prospero-notes §4), shared with nothing in the client.

// quoteStarts are the bytes from which the ISI server quotes a token to its
// end (notes §4).
const quoteStarts = " \t\f\v\n\r/'+,"

// writeToken writes tok as the ISI server does: plain up to the first byte
// of quoteStarts, then quoted to the end with ' doubled; the empty token is
// two quotes.
func writeToken(b *bytes.Buffer, tok string) {
	if tok == "" {
		b.WriteString("''")
		return
	}
	i := 0
	for i < len(tok) && !bytes.ContainsRune([]byte(quoteStarts), rune(tok[i])) {
		i++
	}
	b.WriteString(tok[:i])
	if i == len(tok) {
		return
	}
	b.WriteByte('\'')
	for j := i; j < len(tok); j++ {
		if tok[j] == '\'' {
			b.WriteByte('\'')
		}
		b.WriteByte(tok[j])
	}
	b.WriteByte('\'')
}

// line writes one reply line: words as given (keywords, already-formed
// parts), then tokens quoted, then LF.
func line(b *bytes.Buffer, words string, toks ...string) {
	b.WriteString(words)
	for _, t := range toks {
		b.WriteByte(' ')
		writeToken(b, t)
	}
	b.WriteByte('\n')
}

var errOpenQuote = errors.New("a quote is not closed")

// readLines splits a request into lines of tokens: lines end at an
// unquoted LF or CR, tokens at unquoted blanks, quotes may open and close
// anywhere in a token, two quotes inside quotes are one ', outside an
// empty token.
func readLines(msg []byte) ([][]string, error) {
	var lines [][]string
	var toks []string
	var tok []byte
	inTok, quoted := false, false
	endTok := func() {
		if inTok {
			toks = append(toks, string(tok))
		}
		tok, inTok = nil, false
	}
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		switch {
		case quoted && c == '\'' && i+1 < len(msg) && msg[i+1] == '\'':
			tok = append(tok, '\'')
			i++
		case quoted && c == '\'':
			quoted = false
		case quoted:
			tok = append(tok, c)
		case c == '\'':
			quoted, inTok = true, true
		case c == '\n' || c == '\r':
			endTok()
			if len(toks) > 0 {
				lines = append(lines, toks)
			}
			toks = nil
		case c == ' ' || c == '\t':
			endTok()
		default:
			tok, inTok = append(tok, c), true
		}
	}
	if quoted {
		return nil, errOpenQuote
	}
	endTok()
	if len(toks) > 0 {
		lines = append(lines, toks)
	}
	return lines, nil
}
