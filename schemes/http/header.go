package http

import (
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// AddHeader adds one of curl's -H arguments to h, for Handler.Header:
// "Name: value" adds a field (repeat a name for several), "Name:" removes
// the field of that name the handler would send, "Name;" sends it empty.
// A name that is not an HTTP token, or a value holding CR, LF or another
// control character, is refused: a field must not smuggle in fields or
// requests of its own. Fields that frame a message (Content-Length,
// Transfer-Encoding) are refused too: a GET carries no body.
func AddHeader(h http.Header, arg string) error {
	name, value, found := strings.Cut(arg, ":")
	empty := false
	if !found {
		if name, found = strings.CutSuffix(arg, ";"); !found {
			return fmt.Errorf("%q: want \"Name: value\" (\"Name:\" removes a field, \"Name;\" sends it empty)", arg)
		}
		empty = true
	}
	if !httpguts.ValidHeaderFieldName(name) {
		return fmt.Errorf("%q: %q is not a header field name", arg, name)
	}
	value = strings.TrimSpace(value)
	if !httpguts.ValidHeaderFieldValue(value) {
		return fmt.Errorf("%q: the value holds a control character (CR, LF, NUL, ...), which could start another field", arg)
	}
	key := http.CanonicalHeaderKey(name)
	switch key {
	case "Content-Length", "Transfer-Encoding":
		return fmt.Errorf("%q: %s frames the request body: urlget sets it from the body, never by hand", arg, key)
	}
	switch {
	case empty:
		h[key] = append(h[key], "")
	case value == "":
		h[key] = []string{}
	default:
		h[key] = append(h[key], value)
	}
	return nil
}
