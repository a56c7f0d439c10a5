package schemes

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Match is one URL found in free text by ExtractMatches.
type Match struct {
	// URL is the URL as found: wrapper stripped, whitespace removed, a
	// hyphen before a line break kept, fragment kept. It is not checked;
	// Parse it to use it.
	URL string
	// Alt is set when the URL was broken across lines right after a hyphen:
	// it is URL without those hyphens, the other reading RFC 1738's appendix
	// warns of ("the hyphen may or may not actually be part of the URL").
	Alt string
	// Start and End are the byte offsets in the text of the whole match,
	// wrapper included: text[Start:End].
	Start, End int
}

// knownSchemes are the schemes recognized without a wrapper in running text:
// those of RFC 1738 §3 plus https. Other schemes are found only in "<...>".
// The list is the extraction rule's, protocol knowledge of the text that
// RFC 1738 describes, not the registry's: a scheme declared later is no
// more likely to be written bare in prose, and Extract takes no registry.
var knownSchemes = [...]string{"ftp", "http", "https", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero"}

func isKnownScheme(s string) bool {
	for _, k := range knownSchemes {
		if strings.EqualFold(s, k) {
			return true
		}
	}
	return false
}

// Extract returns the URLs in text, in order of appearance, following the
// recommendations of RFC 1738's appendix; see ExtractMatches.
func Extract(text string) []string {
	ms := ExtractMatches(text)
	if len(ms) == 0 {
		return nil
	}
	urls := make([]string, len(ms))
	for i, m := range ms {
		urls[i] = m.URL
	}
	return urls
}

// ExtractMatches finds URLs in free text (mail, news, printed text), in order
// of appearance. It recognizes:
//
//   - the wrapper "<URL:...>" (any letter case) of RFC 1738's appendix. The
//     URL may be broken across lines: all whitespace inside the wrapper is
//     removed. A paragraph break (an empty line) ends the search for ">".
//   - "<scheme:...>", a wrapper without the "URL:" prefix, as in the draft
//     on URIs in WWW. For a scheme of the list below whitespace is removed
//     as in "<URL:...>"; for any other scheme the content must hold no
//     whitespace, so that prose such as "<note: see below>" is not a URL.
//   - bare URLs of the schemes ftp, http, https, gopher, mailto, news, nntp,
//     telnet, wais, file and prospero in running text. A bare URL ends at
//     whitespace, a control character, one of `<>"{}|\^` and "`", or a
//     non-ASCII character other than a letter, digit or mark (so quotes like
//     “ ” end it). Trailing ".,;:!?" are trimmed, as are a trailing ")" or
//     "]" without its opening partner inside the URL and a trailing "'"
//     that closes a quote. Nothing is returned for a scheme with nothing
//     after it ("the http: scheme").
//
// The hyphen rule. The appendix says that no whitespace should be introduced
// after a hyphen, and that an interpreter finding a line break right after a
// hyphen "should ignore all unencoded whitespace around the line break, and
// should be aware that the hyphen may or may not actually be part of the
// URL". ExtractMatches ignores that whitespace and KEEPS the hyphen in URL,
// offering the reading without it in Match.Alt:
//
//   - a hyphen is a legal, common URL character (host labels, file names),
//     and mail and news software, which wraps lines only at whitespace,
//     never inserts one; a typesetter that breaks a line at an existing
//     hyphen does not add one either. Only the (erroneous) typesetter that
//     hyphenates a URL like a word adds one, and that is the rare case;
//   - keeping it never drops a character the text contains: deleting it
//     invents a URL the text does not literally hold, and does so silently;
//   - both readings are returned, so a caller who fails with URL can try Alt.
//
// Bare URLs follow the same rule: a bare URL ending in "-" at the end of a
// line continues with the URL characters at the start of the next line.
func ExtractMatches(text string) []Match {
	var out []Match
	gt := -1 // index of the first ">" at or after i (len(text) if none)
	for i := 0; i < len(text); {
		c := text[i]
		if c == '<' {
			if gt < i {
				gt = strings.IndexByte(text[i:], '>')
				if gt < 0 {
					gt = len(text)
				} else {
					gt += i
				}
			}
			if gt < len(text) {
				if m, ok := wrapped(text, i, gt); ok {
					out = append(out, m)
					i = gt + 1
					continue
				}
			}
			i++
			continue
		}
		if isAlphaByte(c) && (i == 0 || !isSchemeByte(text[i-1])) {
			if m, ok := bare(text, i); ok {
				out = append(out, m)
				i = m.End
				continue
			}
			// Skip the rest of the word: it cannot start a URL.
			for i++; i < len(text) && isSchemeByte(text[i]); i++ {
			}
			continue
		}
		i++
	}
	return out
}

func isAlphaByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSchemeByte(c byte) bool {
	return isAlphaByte(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// wrapped reads the wrapper text[lt:gt+1] ("<" ... ">").
func wrapped(text string, lt, gt int) (Match, bool) {
	inner := text[lt+1 : gt]
	if strings.IndexByte(inner, '<') >= 0 || hasBlankLine(inner) {
		return Match{}, false
	}
	url, alt, spaced := joinLines(inner)
	if len(url) >= 4 && strings.EqualFold(url[:4], "URL:") {
		url = url[4:]
		if alt != "" {
			alt = alt[4:]
		}
		if url == "" {
			return Match{}, false
		}
	} else {
		colon := strings.IndexByte(url, ':')
		if colon <= 0 || colon == len(url)-1 || !isAlphaByte(url[0]) || !isSchemeName(url[:colon]) {
			return Match{}, false
		}
		if spaced && !isKnownScheme(url[:colon]) {
			return Match{}, false
		}
	}
	return Match{URL: url, Alt: alt, Start: lt, End: gt + 1}, true
}

// hasBlankLine reports whether s holds a line with only whitespace between
// two line breaks: a paragraph break, which a wrapped URL never spans.
func hasBlankLine(s string) bool {
	for i := strings.IndexByte(s, '\n'); i >= 0; {
		j := i + 1
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
			j++
		}
		if j < len(s) && s[j] == '\n' {
			return true
		}
		k := strings.IndexByte(s[j:], '\n')
		if k < 0 {
			return false
		}
		i = j + k
	}
	return false
}

// joinLines removes all whitespace from s. alt is the same with every
// hyphen that is followed by whitespace holding a line break removed too,
// or "" if there is no such hyphen. spaced reports whether s held any
// whitespace.
func joinLines(s string) (url, alt string, spaced bool) {
	if strings.IndexAny(s, " \t\n\r\f\v") < 0 {
		return s, "", false
	}
	return removeSpace(s, false), removeSpace(s, true), true
}

// removeSpace removes the whitespace from s, and with dropHyphens also every
// hyphen followed by whitespace holding a line break. With dropHyphens it
// returns "" if there is no such hyphen.
func removeSpace(s string, dropHyphens bool) string {
	var b strings.Builder
	found := false
	for i := 0; i < len(s); {
		if !isSpaceByte(s[i]) {
			i++
			continue
		}
		j := i
		lineBreak := false
		for j < len(s) && isSpaceByte(s[j]) {
			lineBreak = lineBreak || s[j] == '\n' || s[j] == '\r'
			j++
		}
		if dropHyphens && lineBreak && i > 0 && s[i-1] == '-' {
			found = true
		}
		i = j
	}
	if dropHyphens && !found {
		return ""
	}
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpaceByte(c) {
			continue
		}
		if dropHyphens && c == '-' && i+1 < len(s) && isSpaceByte(s[i+1]) && breakAhead(s[i+1:]) {
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// breakAhead reports whether the whitespace run at the start of s holds a
// line break.
func breakAhead(s string) bool {
	for i := 0; i < len(s) && isSpaceByte(s[i]); i++ {
		if s[i] == '\n' || s[i] == '\r' {
			return true
		}
	}
	return false
}

// bare reads a URL of a known scheme starting at text[start], if there is one.
func bare(text string, start int) (Match, bool) {
	j := start
	for j < len(text) && isSchemeByte(text[j]) {
		j++
	}
	if j >= len(text) || text[j] != ':' || !isKnownScheme(text[start:j]) {
		return Match{}, false
	}
	schemeEnd := j + 1
	// segs are the pieces of text the URL is made of: one, or more when it
	// continues on the next line after a hyphen.
	var segsBuf [2][2]int
	segs := segsBuf[:0]
	a := start
	k := scanURLChars(text, schemeEnd)
	for {
		next, ok := hyphenContinuation(text, a, k)
		if !ok {
			segs = append(segs, [2]int{a, k})
			break
		}
		segs = append(segs, [2]int{a, k})
		a, k = next, scanURLChars(text, next)
	}
	// Trim trailing punctuation from the last piece.
	last := &segs[len(segs)-1]
	for last[1] > last[0] && !(len(segs) == 1 && last[1] <= schemeEnd) {
		if !trailingPunct(text, start, segs) {
			break
		}
		last[1]--
		if last[1] == last[0] && len(segs) > 1 {
			segs = segs[:len(segs)-1]
			last = &segs[len(segs)-1]
		}
	}
	end := segs[len(segs)-1][1]
	rest := text[schemeEnd:end]
	if len(segs) == 1 && (rest == "" || rest == "/" || rest == "//") {
		return Match{}, false
	}
	m := Match{Start: start, End: end}
	if len(segs) == 1 {
		m.URL = text[start:end]
		return m, true
	}
	var u, alt strings.Builder
	for i, s := range segs {
		piece := text[s[0]:s[1]]
		u.WriteString(piece)
		if i < len(segs)-1 {
			piece = piece[:len(piece)-1] // the hyphen before the line break
		}
		alt.WriteString(piece)
	}
	m.URL, m.Alt = u.String(), alt.String()
	return m, true
}

// scanURLChars returns the end of the run of characters a bare URL may hold
// starting at text[i].
func scanURLChars(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7F || strings.IndexByte("<>\"{}|\\^`", c) >= 0 {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)) {
			return i
		}
		i += n
	}
	return i
}

// hyphenContinuation reports whether the URL piece text[a:k] ends with a
// hyphen at the end of a line followed by more URL characters on the next
// line, and where they start.
func hyphenContinuation(text string, a, k int) (int, bool) {
	if k <= a || text[k-1] != '-' {
		return 0, false
	}
	i := k
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	switch {
	case strings.HasPrefix(text[i:], "\r\n"):
		i += 2
	case i < len(text) && (text[i] == '\n' || text[i] == '\r'):
		i++
	default:
		return 0, false
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if scanURLChars(text, i) == i {
		return 0, false
	}
	return i, true
}

// trailingPunct reports whether the last character of the URL made of segs
// is punctuation that belongs to the surrounding text.
func trailingPunct(text string, start int, segs [][2]int) bool {
	last := segs[len(segs)-1]
	c := text[last[1]-1]
	switch c {
	case '.', ',', ';', ':', '!', '?':
		return true
	case ')':
		return countIn(text, segs, '(') < countIn(text, segs, ')')
	case ']':
		return countIn(text, segs, '[') < countIn(text, segs, ']')
	case '\'':
		return countIn(text, segs, '\'')%2 == 1 || start > 0 && text[start-1] == '\''
	}
	return false
}

func countIn(text string, segs [][2]int, c byte) int {
	n := 0
	for _, s := range segs {
		n += strings.Count(text[s[0]:s[1]], string(c))
	}
	return n
}
