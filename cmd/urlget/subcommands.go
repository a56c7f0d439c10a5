package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// subcommands work on URLs as text, without connecting anywhere. Each
// returns the command's exit status.
//
// parse, canon and same share one canonical form, the library's: the
// String of the URL's Locator (schemes.FormatLocator and the scheme
// packages write it), which is what fetch.Client.Parse(raw).String()
// gives, and parse prints as "canonical". A scheme urlget does not know
// gets the generic rules in canon and same (schemes.Registry.Canonical);
// parse refuses it.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"parse":   cmdParse,
	"canon":   cmdCanon,
	"same":    cmdSame,
	"resolve": cmdResolve,
	"extract": cmdExtract,
}

func usageError(stderr io.Writer, usage string) int {
	fmt.Fprintf(stderr, "usage: urlget %s\n", usage)
	return 2
}

func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "urlget: %s\n", redactMessage(err))
	return exitCode(err)
}

// parseView is the fixed part of `urlget parse` output; the scheme's own
// object follows it under the scheme's name. Each part is as written (the
// URL without its "<URL:...>" wrapper; scheme and host in their case, a
// host "localhost" that file: drops from the canonical form; a port only
// when written; user and password decoded), so that a user sees what the
// URL says; Canonical is the form urlget compares and fetches, and the
// scheme's object holds its parts as the scheme reads them.
type parseView struct {
	URL       string  `json:"url"`
	Canonical string  `json:"canonical"`
	Scheme    string  `json:"scheme"`
	User      *string `json:"user"`
	Password  *string `json:"password"`
	Host      *string `json:"host"`
	Port      *int    `json:"port"`
	Fragment  *string `json:"fragment"`
}

// written is the text of a URL's generic parts as written: the parser
// keeps only their canonical reading (lower case, IDNA, RFC 5952
// addresses). raw has parsed, so its syntax is known to be sound.
type written struct {
	url, scheme string
	host        *string // without an IPv6 address's brackets
	port        *int
	fragment    *string
}

func writtenParts(raw string) written {
	w := written{url: schemes.Trim(raw)}
	scheme, rest, _ := strings.Cut(w.url, ":")
	w.scheme = scheme
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		frag := rest[i+1:]
		w.fragment, rest = &frag, rest[:i]
	}
	auth, ok := strings.CutPrefix(rest, "//")
	if !ok {
		return w
	}
	if i := strings.IndexByte(auth, '/'); i >= 0 {
		auth = auth[:i]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:]
	}
	host, portText := auth, ""
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		host, portText = auth[1:end], strings.TrimPrefix(auth[end+1:], ":")
	} else if i := strings.LastIndexByte(auth, ':'); i >= 0 {
		host, portText = auth[:i], auth[i+1:]
	}
	w.host = &host
	if n, err := strconv.Atoi(portText); err == nil {
		w.port = &n
	}
	return w
}

// objectName is the key of the scheme object: TLS and draft variants share
// their base scheme's shape (the declared Name.Of).
func objectName(scheme string) string {
	if n, ok := urlRegistry().Declared(scheme); ok && n.Of != "" {
		return n.Of
	}
	return scheme
}

// cmdParse prints a URL's parts as one JSON object. It shows the password
// when the URL holds one: the user typed it, and asked to see the parts.
func cmdParse(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(stderr, "parse URL")
	}
	loc, err := urlRegistry().Parse(args[0])
	if err != nil {
		return fail(stderr, err)
	}
	g := loc.Generic()
	w := writtenParts(args[0])
	v := parseView{URL: w.url, Canonical: loc.String(), Scheme: w.scheme, User: g.User, Password: g.Password,
		Host: w.host, Port: w.port, Fragment: w.fragment}
	head, err := marshalNoEscape(v)
	if err != nil {
		return fail(stderr, err)
	}
	fields, err := marshalNoEscape(loc.Fields())
	if err != nil {
		return fail(stderr, err)
	}
	key, _ := json.Marshal(objectName(g.Scheme))
	var out bytes.Buffer
	out.Write(head[:len(head)-1])
	fmt.Fprintf(&out, ",%s:%s}", key, fields)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out.Bytes(), "", "  "); err != nil {
		return fail(stderr, err)
	}
	pretty.WriteByte('\n')
	stdout.Write(pretty.Bytes())
	return 0
}

// urlRegistry is the registry the library's zero fetch.Client parses
// with: parse, canon and same must agree with it.
func urlRegistry() *schemes.Registry { return fetch.DefaultRegistry() }

// cmdCanon prints the canonical form of a URL.
func cmdCanon(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(stderr, "canon URL")
	}
	c, err := urlRegistry().Canonical(args[0])
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, c)
	return 0
}

// cmdSame exits 0 and prints "same" when the two URLs have the same
// canonical form, fragments aside; 1 and "different" otherwise.
func cmdSame(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		return usageError(stderr, "same URL URL")
	}
	eq, err := urlRegistry().Equivalent(args[0], args[1])
	if err != nil {
		return fail(stderr, err)
	}
	if eq {
		fmt.Fprintln(stdout, "same")
		return 0
	}
	fmt.Fprintln(stdout, "different")
	return 1
}

func cmdResolve(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		return usageError(stderr, "resolve BASE REF")
	}
	abs, err := schemes.Resolve(args[0], args[1])
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, abs)
	return 0
}

func cmdExtract(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		return usageError(stderr, "extract [FILE|-]")
	}
	r := stdin
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return fail(stderr, &schemes.Error{Phase: "extract", Kind: schemes.KindNotFound, Msg: err.Error()})
		}
		defer f.Close()
		r = f
	}
	text, err := io.ReadAll(r)
	if err != nil {
		return fail(stderr, err)
	}
	for _, u := range schemes.Extract(string(text)) {
		fmt.Fprintln(stdout, u)
	}
	return 0
}

// marshalNoEscape is json.Marshal without HTML escaping: parse shows URLs
// ("news:<id>", "?a&b") as a person wrote them.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
