package gemini

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// The status codes of the Gemini specification (§3.2 and Appendix 1). A
// client that does not know a code acts on its first digit.
const (
	statusInput          = 10 // INPUT: ask the user, send the answer as the query
	statusSensitiveInput = 11 // SENSITIVE INPUT: as 10, not echoed
	statusSuccess        = 20 // SUCCESS: META is the body's media type
	statusRedirectTemp   = 30 // REDIRECT - TEMPORARY: META is the new URL
	statusRedirectPerm   = 31 // REDIRECT - PERMANENT
	statusTempFailure    = 40 // TEMPORARY FAILURE
	statusUnavailable    = 41 // SERVER UNAVAILABLE
	statusCGIError       = 42 // CGI ERROR
	statusProxyError     = 43 // PROXY ERROR
	statusSlowDown       = 44 // SLOW DOWN: META is the seconds to wait
	statusPermFailure    = 50 // PERMANENT FAILURE
	statusNotFound       = 51 // NOT FOUND
	statusGone           = 52 // GONE
	statusProxyRefused   = 53 // PROXY REQUEST REFUSED
	statusBadRequest     = 59 // BAD REQUEST
	statusCertRequired   = 60 // CLIENT CERTIFICATE REQUIRED
	statusCertNotAuth    = 61 // CERTIFICATE NOT AUTHORISED
	statusCertNotValid   = 62 // CERTIFICATE NOT VALID
)

// maxMeta is the longest META the specification allows (§3.1: 1024
// bytes); a header longer than that is not a gemini reply.
const maxMeta = 1024

// header is a reply's first line: "<STATUS><SPACE><META><CR><LF>".
type header struct {
	Status int
	Meta   string
}

// parseHeader reads the reply header from br: two digits, then a space
// and META (which may be empty, with or without its space), then CRLF (a
// lone LF is taken too, as clients do). Anything else is KindProtocol.
func parseHeader(br *bufio.Reader) (header, error) {
	line, err := readLine(br, 2+1+maxMeta+2)
	if err != nil {
		return header{}, err
	}
	return parseHeaderLine(line)
}

// parseHeaderLine parses a header line without its line end.
func parseHeaderLine(line string) (header, error) {
	bad := func(why string) error {
		return &schemes.Error{Scheme: "gemini", Phase: "reply", Kind: schemes.KindProtocol,
			Msg: fmt.Sprintf("not a gemini reply header (%s): %s", why, schemes.Printable(line, 80))}
	}
	if len(line) < 2 || line[0] < '1' || line[0] > '6' || line[1] < '0' || line[1] > '9' {
		return header{}, bad("want two digits, 10 to 69")
	}
	h := header{Status: int(line[0]-'0')*10 + int(line[1]-'0')}
	rest := line[2:]
	switch {
	case rest == "":
	case rest[0] == ' ':
		h.Meta = rest[1:]
	default:
		return header{}, bad("want a space after the status")
	}
	if len(h.Meta) > maxMeta {
		return header{}, bad("META longer than 1024 bytes")
	}
	return h, nil
}

// errLong is a header line longer than any gemini header.
var errLong = errors.New("reply header longer than a gemini header may be")

// readLine reads one line of at most limit bytes, without its CRLF or LF.
func readLine(br *bufio.Reader, limit int) (string, error) {
	var b strings.Builder
	for {
		c, err := br.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = &schemes.Error{Scheme: "gemini", Phase: "reply", Kind: schemes.KindProtocol,
					Msg: "the server closed the connection before a whole reply header", Err: err}
			}
			return "", err
		}
		if c == '\n' {
			return strings.TrimSuffix(b.String(), "\r"), nil
		}
		if b.Len() >= limit {
			return "", &schemes.Error{Scheme: "gemini", Phase: "reply", Kind: schemes.KindProtocol, Msg: errLong.Error()}
		}
		b.WriteByte(c)
	}
}

// statusError is the error of a failure status (4x, 5x, 6x, and 1x where
// no input can be given), with the kind that gives its exit status: 51
// and 52 are not found (exit 3); 42 exit 1; other 4x busy (exit 5, worth
// another try); 53 and 6x refused (exit 4; a client certificate is offered only with Handler.Cert); 59 a request the server could
// not use (exit 6); anything else exit 1.
func statusError(h header) *schemes.Error {
	e := &schemes.Error{Scheme: "gemini", Phase: "reply", Code: h.Status, Kind: schemes.KindOther}
	what := "failure"
	switch h.Status {
	case statusNotFound:
		e.Kind, what = schemes.KindNotFound, "not found"
	case statusGone:
		e.Kind, what = schemes.KindNotFound, "gone"
	case statusTempFailure, statusUnavailable, statusSlowDown:
		e.Kind, e.Retryable, what = schemes.KindBusy, true, "temporary failure"
	case statusCGIError:
		what = "CGI error"
	case statusProxyRefused:
		e.Kind, what = schemes.KindPermission, "proxy request refused"
	case statusBadRequest:
		e.Kind, what = schemes.KindProtocol, "bad request"
	case statusCertRequired:
		e.Kind, what = schemes.KindPermission, "client certificate required"
	case statusCertNotAuth:
		e.Kind, what = schemes.KindPermission, "client certificate not authorised"
	case statusCertNotValid:
		e.Kind, what = schemes.KindPermission, "client certificate not valid"
	default:
		switch h.Status / 10 {
		case 4:
			e.Kind, e.Retryable, what = schemes.KindBusy, true, "temporary failure"
		case 6:
			e.Kind, what = schemes.KindPermission, "client certificate required"
		}
	}
	e.Msg = fmt.Sprintf("%d %s", h.Status, what)
	if h.Meta != "" {
		e.Msg += ": " + schemes.Printable(h.Meta, 200)
	}
	return e
}
