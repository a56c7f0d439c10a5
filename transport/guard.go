package transport

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// LineBreakers are the characters that end or truncate a command line in
// the line-oriented protocols urlget speaks (FTP, NNTP, SMTP, gopher):
// a decoded %0D, %0A or %00 in a URL part would let the URL smuggle in a
// second command (RFC 1738 §6).
const LineBreakers = "\r\n\x00"

// CheckLine refuses value, a decoded URL part about to be sent in a
// protocol line, if it holds CR, LF or NUL. part names it for the message
// and the error's Part, e.g. "cwd segment 2" gives
// `decoded CR in cwd segment 2 would inject a command`.
func CheckLine(scheme, part, value string) error {
	return CheckChars(scheme, part, value, LineBreakers)
}

// CheckChars is CheckLine with the forbidden characters given: gopher
// passes "\r\n\t" because a TAB in a selector would start the search field.
// The error is a *schemes.Error of KindSafety, Phase "request".
func CheckChars(scheme, part, value, forbidden string) error {
	i := strings.IndexAny(value, forbidden)
	if i < 0 {
		return nil
	}
	what := "a command"
	if strings.IndexByte(LineBreakers, value[i]) < 0 {
		what = "a field"
	}
	return &schemes.Error{Scheme: scheme, Phase: "request", Kind: schemes.KindSafety, Part: part,
		Msg: fmt.Sprintf("decoded %s in %s would inject %s", charName(value[i]), part, what)}
}

// charName names a control character the way people write it in protocol
// discussions.
func charName(c byte) string {
	switch c {
	case '\r':
		return "CR"
	case '\n':
		return "LF"
	case 0:
		return "NUL"
	case '\t':
		return "TAB"
	}
	if c < 0x20 || c >= 0x7f {
		return fmt.Sprintf("byte %%%02X", c)
	}
	return fmt.Sprintf("%q", c)
}
