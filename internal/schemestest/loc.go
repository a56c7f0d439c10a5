package schemestest

import "github.com/urlget/urlget/schemes"

// Loc is a Locator made of a generic URL alone, for tests that register
// a fake scheme or render entries without a real scheme's parser.
type Loc struct{ U *schemes.URL }

// Generic returns the URL.
func (l Loc) Generic() *schemes.URL { return l.U }

// String is the URL as written.
func (l Loc) String() string { return l.U.String() }

// Redacted is the URL without its password.
func (l Loc) Redacted() string { return l.U.Redacted() }

// Fields has nothing to add.
func (l Loc) Fields() any { return nil }

// LocalName is the last segment of the path (or of the opaque part, for
// a URL without "//"), as the schemes with a hierarchical path name it.
func (l Loc) LocalName() string {
	if l.U.Authority {
		return schemes.LastSegmentName(l.U.Path)
	}
	return schemes.LastSegmentName(l.U.Opaque)
}

// ParseLoc parses raw with the generic syntax; nil on error.
func ParseLoc(raw string) (schemes.Locator, error) {
	u, err := schemes.Parse(raw)
	if err != nil {
		return nil, err
	}
	return Loc{u}, nil
}
