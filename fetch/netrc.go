package fetch

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// Netrc is a parsed .netrc file (curl's --netrc, --netrc-file): logins by
// host name, whatever the scheme and port, as ftp(1) and curl read them.
// A Client consults it (Client.Netrc) under the same rule as Credentials:
// only for the URL the caller named, never for a host a redirect leads to
// unless LocationTrusted.
type Netrc struct {
	machines []netrcEntry // in file order: the first match wins
	def      *netrcEntry  // the "default" entry, for any other host
}

// netrcEntry is one "machine" or "default" entry. password is nil when
// the entry has none, which is not an empty one.
type netrcEntry struct {
	host     string
	login    string
	password *string
}

// ReadNetrc reads and parses the netrc file name. A missing file is an
// error satisfying errors.Is(err, fs.ErrNotExist), so that a caller can
// treat it as optional (curl's --netrc-optional).
func ReadNetrc(name string) (*Netrc, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	n, err := ParseNetrc(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return n, nil
}

// ParseNetrc reads netrc text as curl does: tokens separated by white
// space, a token in double quotes may hold white space and the escapes
// \" \\ \n \r \t; entries start with "machine NAME" or "default" and hold
// "login NAME", "password PW" and "account ACCT" (read and ignored);
// "macdef NAME" starts a macro whose body runs to the next empty line,
// skipped; a line whose first token starts with "#" is a comment. A
// quoted token left open, or a keyword at the end with no value, is an
// error: the rest of the file cannot be read as its author meant.
func ParseNetrc(text string) (*Netrc, error) {
	toks, err := netrcTokens(text)
	if err != nil {
		return nil, err
	}
	n := &Netrc{}
	var cur *netrcEntry
	for i := 0; i < len(toks); i++ {
		kw := toks[i]
		if kw == "default" {
			cur = &netrcEntry{}
			if n.def == nil {
				n.def = cur
			}
			continue
		}
		switch kw {
		case "machine", "login", "password", "account":
		default:
			continue // unknown words are skipped, as curl does
		}
		if i+1 >= len(toks) {
			return nil, fmt.Errorf("netrc: %q at the end of the file has no value", kw)
		}
		i++
		v := toks[i]
		switch {
		case kw == "machine":
			n.machines = append(n.machines, netrcEntry{host: v})
			cur = &n.machines[len(n.machines)-1]
		case cur == nil: // a login or password before any machine: no host to give it to
		case kw == "login":
			cur.login = v
		case kw == "password":
			cur.password = &v
		}
	}
	return n, nil
}

// netrcTokens splits text into tokens, leaving out comments and macro
// bodies.
func netrcTokens(text string) ([]string, error) {
	var toks []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		first := true
		for {
			line = strings.TrimLeft(line, " \t\r\f\v")
			if line == "" {
				break
			}
			if first && line[0] == '#' {
				break
			}
			first = false
			tok, rest, err := netrcToken(line)
			if err != nil {
				return nil, fmt.Errorf("netrc: line %d: %w", i+1, err)
			}
			line = rest
			if tok == "macdef" {
				// The macro's name ends the line; its body runs to the
				// next empty line.
				for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				}
				break
			}
			toks = append(toks, tok)
		}
	}
	return toks, nil
}

// netrcToken reads the token line starts with (no leading space).
func netrcToken(line string) (tok, rest string, err error) {
	if line[0] != '"' {
		end := strings.IndexAny(line, " \t\r\f\v")
		if end < 0 {
			return line, "", nil
		}
		return line[:end], line[end:], nil
	}
	var b strings.Builder
	for i := 1; i < len(line); i++ {
		switch c := line[i]; c {
		case '"':
			return b.String(), line[i+1:], nil
		case '\\':
			if i+1 == len(line) {
				return "", "", errors.New("quoted token ends in a backslash")
			}
			i++
			switch e := line[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", errors.New("quoted token is not closed")
}

// Lookup finds host's login as curl does: the first "machine" entry that
// names host (without regard to case), else the "default" entry. ok is
// false when no entry applies or the one that does has no login (a
// machine entry shadows the default even then). password is nil when the
// entry has none.
func (n *Netrc) Lookup(host string) (login string, password *string, ok bool) {
	if n == nil {
		return "", nil, false
	}
	e := n.def
	for i := range n.machines {
		if strings.EqualFold(n.machines[i].host, host) {
			e = &n.machines[i]
			break
		}
	}
	if e == nil || e.login == "" {
		return "", nil, false
	}
	return e.login, e.password, true
}

// Credentials supplies n's logins by host. An entry without a password
// gives an empty one, which schemes.Credentials reads as none known: a
// handler that can ask the person at the terminal does so when the
// server wants one.
func (n *Netrc) Credentials() schemes.Credentials {
	return func(_, host string, _ int) (string, string, bool) {
		login, pass, ok := n.Lookup(host)
		if !ok {
			return "", "", false
		}
		if pass == nil {
			return login, "", true
		}
		return login, *pass, true
	}
}
