package prospero

import (
	"fmt"
	"strings"
)

// A reply's lines, read (prospero-notes §6).

// link is a LINK line: `LINK L|U target name host-type host hsoname-type
// hsoname version`, with the ATTRIBUTE lines that follow it.
type link struct {
	target   string // FILE, DIRECTORY, EXTERNAL, ...
	name     string
	hostType string
	host     string // "name" or "name(port)"
	hsoType  string
	hsoname  string
	version  string
	attrs    []attribute
}

// attribute is an ATTRIBUTE line: applies-to, nature, name, and values
// (the avtype taken off where the notes' rule says it is one).
type attribute struct {
	appliesTo string // OBJECT, LINK, CACHED, ...
	nature    string // FIELD, INTRINSIC, APPLICATION
	name      string
	values    []string
	sub       bool // an ATTRIBUTE> line
}

// status is a status line: NONE-FOUND, FAILURE, FORWARDED, ...
type status struct {
	word string   // "NONE-FOUND", "FAILURE", "FORWARDED", "ERROR", ...
	args []string // the tokens after it
	line string   // the line as sent, for messages
}

// reply is a parsed reply message.
type reply struct {
	objectAttrs []attribute // ATTRIBUTE lines not under a LINK
	links       []link
	statuses    []status
}

// registeredSequence are the FIELD attributes registered with the type
// SEQUENCE, whose avtype the server leaves out (notes §6).
var registeredSequence = map[string]bool{
	"ACCESS-METHOD": true, "BASE-TYPE": true, "DEST-EXP": true, "HOST": true, "HOST-TYPE": true,
	"HSONAME": true, "HSONAME-TYPE": true, "ID": true, "LINK-TYPE": true, "NAME-COMPONENT": true,
	"OWNER": true, "TARGET": true, "TTL": true, "VERSION": true,
}

// avtypes are the value types an ATTRIBUTE line may name.
var avtypes = map[string]bool{"SEQUENCE": true, "LINK": true, "FILTER": true, "ASCII": true}

// parseReply reads a reassembled reply message.
func parseReply(msg []byte) (*reply, error) {
	lines, err := splitLines(msg)
	if err != nil {
		return nil, err
	}
	r := &reply{}
	for _, l := range lines {
		toks, err := tokens(l)
		if err != nil {
			return nil, err
		}
		if len(toks) == 0 {
			continue
		}
		switch kw := toks[0]; {
		case kw == "LINK":
			if len(toks) < 9 {
				return nil, fmt.Errorf("a LINK line of %d tokens: %q", len(toks), l)
			}
			r.links = append(r.links, link{target: toks[2], name: toks[3], hostType: toks[4], host: toks[5],
				hsoType: toks[6], hsoname: toks[7], version: toks[8]})
		case strings.HasPrefix(kw, "ATTRIBUTE"):
			a, err := parseAttribute(toks)
			if err != nil {
				return nil, fmt.Errorf("%v: %q", err, l)
			}
			if n := len(r.links); n > 0 {
				r.links[n-1].attrs = append(r.links[n-1].attrs, a)
			} else {
				r.objectAttrs = append(r.objectAttrs, a)
			}
		default:
			r.statuses = append(r.statuses, status{word: kw, args: toks[1:], line: l})
		}
	}
	return r, nil
}

// parseAttribute reads `ATTRIBUTE[>…] applies-to nature name [avtype]
// values…`: for a registered FIELD name the next token is the type only
// if it is the registered type and more tokens follow; for other natures
// an avtype is always written.
func parseAttribute(toks []string) (attribute, error) {
	if len(toks) < 4 {
		return attribute{}, fmt.Errorf("an ATTRIBUTE line of %d tokens", len(toks))
	}
	a := attribute{sub: strings.HasPrefix(toks[0], "ATTRIBUTE>"), appliesTo: toks[1], nature: toks[2], name: toks[3]}
	vals := toks[4:]
	if len(vals) > 1 {
		switch {
		case a.nature == "FIELD" && registeredSequence[a.name]:
			if vals[0] == "SEQUENCE" {
				vals = vals[1:]
			}
		case a.nature == "FIELD" && a.name == "CLOSURE":
			if vals[0] == "LINK" {
				vals = vals[1:]
			}
		case avtypes[vals[0]]:
			vals = vals[1:]
		}
	}
	a.values = vals
	return a, nil
}

// accessMethods are the ACCESS-METHOD values of attrs, in order.
func accessMethods(attrs []attribute) [][]string {
	var out [][]string
	for _, a := range attrs {
		if a.name == "ACCESS-METHOD" && !a.sub && len(a.values) > 0 {
			out = append(out, a.values)
		}
	}
	return out
}
