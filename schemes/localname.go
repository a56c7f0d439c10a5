package schemes

import "strings"

// BaseName is the local file name a decoded name suggests, as
// Locator.LocalName promises it: what follows the name's last "/" or "\"
// (a decoded "%2F" in a URL, or a server's "..\x", must not become a
// directory, and "\" separates directories on some systems), or "" when
// that is "", "." or "..", or holds a control character (NUL, CR, LF,
// ESC, DEL, ...), which no terminal or listing would show as written.
//
// It is for a name that is already decoded; a scheme picks which decoded
// part names its resource, BaseName makes it one safe path segment.
func BaseName(name string) string {
	s := name[strings.LastIndexAny(name, `/\`)+1:]
	if s == "." || s == ".." {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7F {
			return ""
		}
	}
	return s
}

// LastSegmentName is BaseName of the last "/"-separated segment of an
// escaped url-path, decoded: the local name of the schemes whose path is
// a hierarchy whose last segment names the resource. A path ending in "/"
// names a directory, not a file, and gives "", as does a malformed escape.
func LastSegmentName(escapedPath string) string {
	d, err := Unescape(escapedPath[strings.LastIndexByte(escapedPath, '/')+1:])
	if err != nil {
		return ""
	}
	return BaseName(d)
}
