package mirror

import (
	"fmt"
	"path"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// WorkSuffix ends the name of every work file the mirror writes: a file
// being downloaded (NAME.urlget-part) or compared (NAME.urlget-part for a
// new copy of an item without size or time). Remote names ending in it are
// refused, and Delete never touches local ones, so a work file is never
// mistaken for mirrored data nor mirrored data for a work file.
const WorkSuffix = ".urlget-part"

// LockName is the lock file in the destination's top directory: two runs
// into one directory exclude each other with it.
const LockName = ".urlget-mirror.lock"

// reserved says whether name is one the mirror keeps for itself: the
// lock, a shard's lock (ShardLockName), a work file.
func reserved(name string) bool {
	return name == LockName || strings.HasPrefix(name, LockName+".") || strings.HasSuffix(name, WorkSuffix)
}

// localName checks the name a listing gave an entry: one safe path
// segment (schemes.SafeName: no "/" or NUL, not "." or ".."; and here no
// "\", which is a separator on some systems a mirror may be copied to,
// and no control character, which would garble every listing of the
// tree), not one the mirror keeps for itself. A listing names an
// entry it cannot name safely with Name "" and its text in Title.
func localName(e schemes.Entry) (string, error) {
	if e.Name == "" {
		return "", fmt.Errorf("unsafe name %q refused", e.Label())
	}
	if safe, ok := schemes.SafeName(e.Name); !ok || safe != e.Name || strings.ContainsFunc(e.Name, unsafeRune) {
		return "", fmt.Errorf("unsafe name %q refused", e.Name)
	}
	if reserved(e.Name) {
		return "", fmt.Errorf("name %q refused: it has the form of the mirror's own files (*%s, %s*)", e.Name, WorkSuffix, LockName)
	}
	return e.Name, nil
}

// join is the relative path of name in the directory rel ("" for the top).
func join(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// depth is the number of directories above rel's last segment.
func depth(rel string) int {
	if rel == "" {
		return 0
	}
	return strings.Count(rel, "/") + 1
}

// dir is rel's parent ("" for the top).
func dir(rel string) string {
	d := path.Dir(rel)
	if d == "." {
		return ""
	}
	return d
}

// unsafeRune is a rune no mirrored name may hold.
func unsafeRune(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }
