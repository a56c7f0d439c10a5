package mirror

import "fmt"

// The bounds of a walk (Options.MaxDepth, MaxListings, MaxEntries, and
// the URLs one run keeps track of), as Event.Bound and Bound.Name name
// them.
const (
	BoundDepth    = "depth"    // links or directory levels from the start
	BoundListings = "listings" // listings one run makes
	BoundEntries  = "entries"  // entries one listing may hold
	BoundVisited  = "visited"  // URLs one run keeps track of
)

// The settings (Options fields) that Event.Setting and
// schemes.Error.Setting name, so that a command can show its own flag for
// each: the library's messages name none.
const (
	SettingMaxDepth       = "mirror.MaxDepth"
	SettingMaxListings    = "mirror.MaxListings"
	SettingMaxEntries     = "mirror.MaxEntries"
	SettingMaxDelete      = "mirror.MaxDelete"
	SettingFollowSymlinks = "mirror.FollowSymlinks"
)

// Bound is a bound of the walk that the run reached, for the summary: a
// crawl stopped by one says which, and what it left out, whether it
// fails the run (listings, entries, visited) or not (depth).
type Bound struct {
	// Name is the bound: BoundDepth, BoundListings, BoundEntries or
	// BoundVisited.
	Name string `json:"bound"`
	// Limit is its value in this run.
	Limit int `json:"limit"`
	// Default is set when Limit is the default, not the caller's.
	Default bool `json:"default,omitempty"`
	// Left is what it left out: the links or directories not followed
	// (depth, listings, visited), or the listings cut short (entries).
	// A link reached from several pages counts once each time.
	Left int `json:"left"`
}

// String says it for a person: "depth 10 (the default): 37 links not
// followed".
func (b Bound) String() string {
	def := ""
	if b.Default {
		def = " (the default)"
	}
	what := "links not followed"
	if b.Name == BoundEntries {
		what = "listings cut short"
	}
	return fmt.Sprintf("%s %d%s: %d %s", b.Name, b.Limit, def, b.Left, what)
}

// reached counts one more thing left out by the bound name, under evmu
// (emit's caller holds it), adding the bound to the summary the first
// time.
func (e *engine) reached(name string) {
	for i := range e.sum.Bounds {
		if e.sum.Bounds[i].Name == name {
			e.sum.Bounds[i].Left++
			return
		}
	}
	b := Bound{Name: name, Left: 1}
	switch name {
	case BoundDepth:
		b.Limit, b.Default = e.depth, e.opt.MaxDepth == 0
	case BoundListings:
		b.Limit, b.Default = e.maxListings, e.opt.MaxListings == 0
	case BoundEntries:
		b.Limit, b.Default = e.maxEntries, e.opt.MaxEntries == 0
	case BoundVisited:
		b.Limit, b.Default = maxVisited, true
	}
	e.sum.Bounds = append(e.sum.Bounds, b)
}
