package prospero

import (
	"errors"
	"strings"
)

// maxLines and maxTokens bound what one reply may hold once split: the
// message itself is bounded by the ARDP reassembly.
const (
	maxLines  = 1 << 16
	maxTokens = 1 << 10 // per line
)

// errTooMany is a reply with more lines or tokens than urlget reads.
var errTooMany = errors.New("reply with too many lines or tokens")

// splitLines cuts a reassembled reply into lines at every unquoted LF or
// CR (prospero-notes §4): a quote may open and close anywhere inside a
// token, everything inside quotes is literal (LF, CR and NUL included),
// a doubled quote inside quotes is one quote. Trailing blanks of a line are dropped;
// the last line may lack its LF; empty lines are skipped. Bytes are bytes:
// nothing is decoded.
func splitLines(msg []byte) ([]string, error) {
	var lines []string
	start, quoted := 0, false
	for i := 0; i < len(msg); i++ {
		switch c := msg[i]; {
		case c == '\'':
			quoted = !quoted // "''" inside quotes closes and reopens: same state after
		case !quoted && (c == '\n' || c == '\r'):
			if l := strings.TrimRight(string(msg[start:i]), " \t"); l != "" {
				if len(lines) == maxLines {
					return nil, errTooMany
				}
				lines = append(lines, l)
			}
			start = i + 1
		}
	}
	if l := strings.TrimRight(string(msg[start:]), " \t"); l != "" {
		lines = append(lines, l)
	}
	return lines, nil
}

// tokens splits one line into its tokens at unquoted blanks and removes
// the quoting: `0'/about.txt'` is "0/about.txt", `with' space.txt'` is
// "with space.txt", a doubled quote inside quotes one quote ("it's"),
// and two quotes alone an empty token.
// An unterminated quote runs to the end of the line.
func tokens(line string) ([]string, error) {
	var out []string
	var tok strings.Builder
	in, quoted := false, false // in: a token is under way
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			tok.WriteByte('\'')
			i++
		case c == '\'':
			quoted, in = !quoted, true
		case !quoted && (c == ' ' || c == '\t'):
			if in {
				if len(out) == maxTokens {
					return nil, errTooMany
				}
				out = append(out, tok.String())
				tok.Reset()
				in = false
			}
		default:
			tok.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, tok.String())
	}
	return out, nil
}

// quote writes a token for a request: as it is when it holds nothing
// special, else quoted whole with its quotes doubled (a client may quote
// any whole token, notes §4); the empty token is two quotes.
func quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\f\v\n\r/'+,") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
