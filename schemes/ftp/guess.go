package ftp

import (
	"fmt"
	"path"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// textSuffixes are the name endings guessed to be text when a URL has no
// typecode; everything else is fetched as an image (TYPE I), which never
// alters bytes. Text is fetched in TYPE A only from a server whose system
// stores it in other line ends (see bySystem).
var textSuffixes = map[string]bool{
	".txt": true, ".text": true, ".asc": true, ".htm": true, ".html": true, ".css": true, ".csv": true,
	".md": true, ".rst": true, ".c": true, ".h": true, ".go": true, ".py": true, ".sh": true,
	".pl": true, ".xml": true, ".json": true, ".ini": true, ".conf": true, ".cfg": true, ".log": true,
	".tex": true, ".me": true, ".1st": true, ".diz": true, ".nfo": true, ".lst": true, ".readme": true,
}

// textNames are whole names guessed to be text.
var textNames = map[string]bool{"readme": true, "index": true, "ls-lr": true, "motd": true, "changes": true,
	"install": true, "copying": true, "news": true, "todo": true}

// guessType returns 'a' for names that look like text and 'i' otherwise.
func guessType(name string) byte {
	n := strings.ToLower(name)
	if textSuffixes[path.Ext(n)] || textNames[n] {
		return 'a'
	}
	return 'i'
}

// xferType is the TYPE of one retrieval and how it was chosen.
type xferType struct {
	t       byte   // 'a' or 'i'
	guessed bool   // neither the URL nor the user named it
	note    string // for the trace: who chose this TYPE, and why
	// askSystem: the name looks like text, and whether TYPE A would
	// change anything depends on the server's system (see bySystem).
	askSystem bool
}

// transferType decides the TYPE of a retrieval of loc, of part of it when
// part says which ("resuming", "a range of"; "" for all of it): the URL's
// ";type=", else the Handler's DefaultType (--ascii, --binary), else the
// guess RFC 1738 §3.2.3 leaves to the client. A name that does not look
// like text is fetched in TYPE I. One that does is left to the server's
// system (askSystem; see bySystem), unless only part of it is asked for:
// REST counts the server's bytes, which only TYPE I delivers unchanged, so
// a partial copy is continued, and a range sent, in TYPE I.
func (h *Handler) transferType(loc *URL, part string, exact bool) xferType {
	switch {
	case loc.Type == 'a' || loc.Type == 'i':
		return xferType{t: loc.Type, note: fmt.Sprintf("the URL's ;type=%c: TYPE %c", loc.Type, loc.Type-'a'+'A')}
	case exact:
		return xferType{t: 'i'} // Request.Exact: the stored bytes, no guess
	case h.DefaultType == 'a':
		return xferType{t: 'a', note: h.words.Option("ascii") + ": TYPE A"}
	case h.DefaultType == 'i':
		return xferType{t: 'i', note: h.words.Option("binary") + ": TYPE I"}
	}
	if guessType(loc.Name) == 'i' {
		return xferType{t: 'i', guessed: true,
			note: fmt.Sprintf("no ;type=: %q does not look like text, so TYPE I: the exact bytes", loc.Name)}
	}
	if part != "" {
		return xferType{t: 'i', guessed: true, note: fmt.Sprintf("no ;type=: %s %q in TYPE I, the exact "+
			"bytes: only there does an offset name a position on the server (SYST not asked)", part, loc.Name)}
	}
	return xferType{t: 'i', guessed: true, askSystem: true}
}

// bySystem settles the guess for a name that looks like text from the
// server's SYST reply (rp; ok false when the server gave none); words
// name the ascii and binary options in its note. Between
// systems with the same line ends, TYPE A and TYPE I give the same text
// and only TYPE I gives the exact bytes, the ones curl, wget and the
// mirror get: so TYPE I from a UNIX server and from one that does not
// say (almost always a UNIX one). Another system (VMS, Windows_NT, MVS,
// OS/400, …) stores text its own way, which TYPE A turns into lines.
func (tt xferType) bySystem(name string, rp reply, ok bool, words schemes.Words) xferType {
	tt.askSystem = false
	sys := systemName(rp)
	switch {
	case !ok || sys == "":
		tt.t = 'i'
		tt.note = fmt.Sprintf("no ;type=: %q looks like text, but the server does not name its system (SYST: %s), "+
			"so TYPE I: the exact bytes (;type=a or %s asks for text in TYPE A)", name, clip(rp.String()), words.Option("ascii"))
	case strings.EqualFold(sys, "UNIX"):
		tt.t = 'i'
		tt.note = fmt.Sprintf("no ;type=: the server is UNIX (SYST), so TYPE I: the exact bytes (%q looks like "+
			"text, which a UNIX server stores with the line ends urlget writes)", name)
	default:
		tt.t = 'a'
		tt.note = fmt.Sprintf("no ;type=: %q looks like text and the server is %s (SYST), whose text is stored "+
			"its own way, so TYPE A: lines ending in LF (;type=i or %s for the exact bytes)", name, sys, words.Option("binary"))
	}
	return tt
}

// systemName is the system a 215 reply to SYST names: its first word
// ("215 UNIX Type: L8", "215 Windows_NT", "215 VMS"); "" for any other
// reply.
func systemName(rp reply) string {
	if rp.Code != 215 {
		return ""
	}
	f := strings.Fields(rp.Text())
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// system returns the server's reply to SYST (RFC 959 §4.1.3), asked once
// per control connection, and only when a guess needs it (the pool keeps
// the answer with the connection): ok is false when the server gave no
// 215 answer, which is no failure. A 421 or a broken connection is.
func (c *ctrl) system(loc *URL) (reply, bool, error) {
	if !c.systAsked {
		rp, err := c.cmd("SYST")
		if err != nil {
			return rp, false, ioError(loc, "syst", err)
		}
		if rp.Code == codeServiceNotAvailable {
			return rp, false, c.replyError(loc, "syst", "SYST", rp)
		}
		c.syst, c.systAsked = rp, true
	}
	return c.syst, c.syst.Code == 215, nil
}
