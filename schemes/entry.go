package schemes

import (
	"os"
	"strings"
	"time"
)

// EntryKind says what an Entry refers to.
type EntryKind string

// The kinds of entry. Every lister uses these and no others.
const (
	EntryFile    EntryKind = "file"    // a document: fetching its Locator yields bytes
	EntryDir     EntryKind = "dir"     // a container: listing its Locator yields entries
	EntryLink    EntryKind = "link"    // a symbolic link; Target says where it points
	EntrySearch  EntryKind = "search"  // a search (gopher type 7, a WAIS database): takes words
	EntrySession EntryKind = "session" // an interactive session (gopher telnet items)
	EntryInfo    EntryKind = "info"    // text that names nothing (gopher info lines)
	EntryRaw     EntryKind = "raw"     // a listing line no parser understood; Title holds it
	EntryUnknown EntryKind = "unknown" // a name whose kind the protocol does not tell (NLST)
)

// Entry is one item of a listing (a directory, menu, group or search
// result), or what Stat says of one resource. Its fields mean the same for
// every scheme; what only one scheme knows goes in Extra.
type Entry struct {
	// Name is one path segment that is safe to use as a local file name
	// (see SafeName): the protocol's own name where it has one (an FTP
	// file name, an article number), derived where it has none (a gopher
	// selector's last segment, a WAIS headline). It is "" for items that
	// name nothing (info lines, raw lines) and for names that cannot be
	// used locally ("..", "a/b"), whose text is then in Title.
	Name string
	// Title is what a person is shown: a gopher menu line, a WAIS
	// headline, an article's subject; "" when it would repeat Name.
	Title string
	// Kind says what the entry is.
	Kind EntryKind
	// Size is the size in bytes, -1 when unknown.
	Size int64
	// ModTime is the modification time, zero when unknown.
	ModTime time.Time
	// Precision is how exact ModTime is: a second for MLSD, a minute or a
	// day for LIST, 0 when ModTime is zero. Two times that differ by less
	// than the coarser precision are the same time.
	Precision time.Duration
	// Locator is the item's URL, ready to fetch (or list, for a dir): it
	// keeps the listed URL's credentials, so print it only with Redacted.
	// nil when the item has no URL (info lines, NLST names of unknown
	// kind still get one).
	Locator Locator
	// Form is the URL of the item's form when the server asks questions
	// before it answers it (a Gopher+ +ASK item: its Locator with the
	// Gopher+ string "?"), an Answerer; nil otherwise. Retrieving it
	// submits answers, so only a caller that means to (a person at a
	// form) follows it: crawls and mirrors never do.
	Form Locator
	// Target is where a link points, as the server gave it.
	Target string
	// Extra holds what only some schemes know, in a fixed order: a gopher
	// item type, an article's message-id, a WAIS score.
	Extra Extras
}

// Label is what to show a person for e: Title, else Name.
func (e Entry) Label() string {
	if e.Title != "" {
		return e.Title
	}
	return e.Name
}

// SameTime reports whether e's modification time and t are the same
// within e's precision and prec, the coarser of the two: a time listed to
// the minute matches any time in that minute. Unknown times never match.
func (e Entry) SameTime(t time.Time, prec time.Duration) bool {
	if e.ModTime.IsZero() || t.IsZero() {
		return false
	}
	p := max(e.Precision, prec, time.Second)
	d := e.ModTime.Sub(t)
	if d < 0 {
		d = -d
	}
	// Times are truncated to their precision by the servers that list
	// them, so the same instant can read up to one precision unit apart.
	return d < p
}

// MarshalJSON writes the entry for --json: the Locator as its redacted
// URL, the precision in seconds, unknown fields left out.
func (e Entry) MarshalJSON() ([]byte, error) {
	return e.AppendJSON(nil), nil
}

// Extra is one scheme-specific fact about an entry.
type Extra struct {
	Key, Value string
}

// Extras is a small ordered map of scheme-specific facts. Keys are
// lower-case with underscores ("gopher_type", "message_id", "score").
type Extras []Extra

// Get returns the value stored under key.
func (x Extras) Get(key string) (string, bool) {
	for _, kv := range x {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Set stores value under key, in place when key is present, else at the
// end.
func (x *Extras) Set(key, value string) {
	for i := range *x {
		if (*x)[i].Key == key {
			(*x)[i].Value = value
			return
		}
	}
	*x = append(*x, Extra{key, value})
}

// String writes the extras as "key=value key=value", in order.
func (x Extras) String() string {
	parts := make([]string, len(x))
	for i, kv := range x {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, " ")
}

// MarshalJSON writes the extras as one JSON object, keys in order.
func (x Extras) MarshalJSON() ([]byte, error) {
	return x.appendJSON(nil), nil
}

// SafeName returns name if it can be used as one local path segment: not
// empty, not "." or "..", and free of "/" and NUL (and of "\" where that
// separates paths). ok is false otherwise; listers then leave Entry.Name
// empty and show the name in Title, so that no server can make a caller
// write outside the directory it chose.
func SafeName(name string) (string, bool) {
	switch {
	case name == "", name == ".", name == "..":
		return "", false
	case strings.ContainsAny(name, "/\x00"):
		return "", false
	case pathSeparatorIsBackslash && strings.ContainsRune(name, '\\'):
		return "", false
	}
	return name, true
}

// SetName sets e.Name to name when SafeName accepts it, and otherwise
// leaves Name empty and puts name in Title (unless Title is already set).
func (e *Entry) SetName(name string) {
	if n, ok := SafeName(name); ok {
		e.Name = n
		return
	}
	e.Name = ""
	if e.Title == "" {
		e.Title = name
	}
}

// pathSeparatorIsBackslash is true where "\" separates paths, so that it
// cannot appear in a safe name there.
const pathSeparatorIsBackslash = os.PathSeparator == '\\'
