package ftp

import (
	"os"
	"strings"
)

// netrc looks host up in the Handler's .netrc file as curl does: the first
// "machine host" entry, else "default". The password is nil when the entry
// has none (the user is then prompted if the server asks).
func (h *Handler) netrc(host string) (user string, pass *string, ok bool) {
	if h.Netrc == "" {
		return "", nil, false
	}
	b, err := os.ReadFile(h.Netrc)
	if err != nil {
		return "", nil, false
	}
	return lookupNetrc(string(b), host)
}

// lookupNetrc reads netrc text: tokens separated by white space, entries
// starting with "machine NAME" or "default", with "login", "password" and
// "account" keys; "macdef" bodies run to an empty line and are skipped.
func lookupNetrc(text, host string) (user string, pass *string, ok bool) {
	type entry struct {
		user string
		pass *string
	}
	var cur *entry
	var match, def *entry
	lines := strings.Split(text, "\n")
	var toks []string
	for i := 0; i < len(lines); i++ {
		f := strings.Fields(lines[i])
		if len(f) > 0 && f[0] == "macdef" {
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			}
			continue
		}
		toks = append(toks, f...)
	}
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "machine":
			cur = nil
			if i+1 < len(toks) {
				i++
				if match == nil && strings.EqualFold(toks[i], host) {
					match = &entry{}
					cur = match
				} else {
					cur = &entry{}
				}
			}
		case "default":
			cur = &entry{}
			if def == nil {
				def = cur
			}
		case "login":
			if i+1 < len(toks) && cur != nil {
				i++
				cur.user = toks[i]
			}
		case "password":
			if i+1 < len(toks) && cur != nil {
				i++
				p := toks[i]
				cur.pass = &p
			}
		case "account":
			i++
		}
	}
	for _, e := range []*entry{match, def} {
		if e != nil && e.user != "" {
			return e.user, e.pass, true
		}
	}
	return "", nil, false
}
