package ftp

import (
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
