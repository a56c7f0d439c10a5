package ftp

import (
	"fmt"
	"path"
	"strings"
)

// textSuffixes are the name endings guessed to be text (TYPE A) when a
// URL has no typecode; everything else is fetched as an image (TYPE I),
// which never alters bytes.
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
	note    string // for the trace: why this TYPE, when the client chose it
}

// transferType decides the TYPE of a retrieval of loc that starts at
// offset: the URL's ";type=", else the Handler's DefaultType (--ascii,
// --binary), else the guess from the name that RFC 1738 §3.2.3 leaves to
// the client. A guess of text is not kept for a resumed transfer: REST
// counts the server's bytes, which only TYPE I delivers unchanged, so the
// partial copy is continued in TYPE I.
func (h *Handler) transferType(loc *URL, offset int64, exact bool) xferType {
	switch {
	case loc.Type == 'a' || loc.Type == 'i':
		return xferType{t: loc.Type}
	case exact:
		return xferType{t: 'i'} // Request.Exact: the stored bytes, no guess
	case h.DefaultType == 'a' || h.DefaultType == 'i':
		return xferType{t: h.DefaultType}
	}
	g := guessType(loc.Name)
	if g == 'a' && offset > 0 {
		return xferType{t: 'i', guessed: true, note: fmt.Sprintf("no ;type= in the URL: resuming %q in TYPE I rather "+
			"than the TYPE A its name suggests, since an offset in TYPE A names no position on the server", loc.Name)}
	}
	return xferType{t: g, guessed: true,
		note: fmt.Sprintf("no ;type= in the URL: guessed TYPE %c from the name %q", g-'a'+'A', loc.Name)}
}
