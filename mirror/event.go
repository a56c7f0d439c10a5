package mirror

import (
	"encoding/json"
	"time"
)

// EventType says what happened.
type EventType string

// The events of a run, in the order a file meets them.
const (
	EventListed EventType = "listed" // a remote directory was listed
	EventGet    EventType = "get"    // a file was fetched (or, in a dry run, would be)
	EventSkip   EventType = "skip"   // an entry was left alone: Reason says why (ReasonUnchanged: the file is up to date)
	EventDelete EventType = "delete" // a local file or directory was removed (or would be)
	EventError  EventType = "error"  // something failed: Err says what
)

// ReasonUnchanged is the Reason of a skip for a file that is up to date.
const ReasonUnchanged = "unchanged"

// ReasonAsks begins the Reason of a skip for a URL whose server asks for
// something a crawl does not give (schemes.Error.Asks: input, a client
// certificate) instead of answering with a file or a listing; the
// server's words follow.
const ReasonAsks = "the server asks for input or an identity, which a mirror does not give"

// Event is one thing that happened in a run, for a person (the command's
// output) or a script (--json).
type Event struct {
	Type EventType
	// Path is the slash-separated path relative to the top ("" for the
	// top directory itself).
	Path string
	// URL is the remote URL, redacted (no password); "" for deletions.
	URL string
	// Bytes is what a get moved in this run (for a skip: what was
	// fetched to compare, when the listing gave no time), the entries a
	// listing held, or the size of what a deletion removed (files only).
	Bytes int64
	// Duration is how long a get or a listing took.
	Duration time.Duration
	// Reason says why an entry was skipped, fetched or deleted
	// ("unchanged", "new", "size differs", "dry run", ...).
	Reason string
	// Err is the failure of an error event.
	Err error
	// DryRun marks what a dry run would do.
	DryRun bool
	// Bound names the bound of the walk (BoundDepth, ...) that made this
	// skip or failure, "" for none; the summary counts them (Bounds).
	Bound string
	// Setting names the option (SettingMaxDepth, ...) that decided a
	// skip, "" for none; Reason does not name it (see
	// schemes.Error.Setting).
	Setting string
	// Shard is the run's shard (Options.Shard), the zero Shard when the
	// mirror is not split: merged logs of the shards say whose each
	// event is.
	Shard Shard
}

// MarshalJSON writes the event as one flat JSON object, durations in
// seconds and the error as its text.
func (e Event) MarshalJSON() ([]byte, error) {
	type out struct {
		Event    EventType `json:"event"`
		Path     string    `json:"path"`
		URL      string    `json:"url,omitempty"`
		Bytes    int64     `json:"bytes,omitempty"`
		Duration float64   `json:"duration_s,omitempty"`
		Reason   string    `json:"reason,omitempty"`
		Error    string    `json:"error,omitempty"`
		DryRun   bool      `json:"dry_run,omitempty"`
		Bound    string    `json:"bound,omitempty"`
		Setting  string    `json:"setting,omitempty"`
		Shard    string    `json:"shard,omitempty"`
	}
	o := out{Event: e.Type, Path: e.Path, URL: e.URL, Bytes: e.Bytes, Duration: seconds(e.Duration),
		Reason: e.Reason, DryRun: e.DryRun, Bound: e.Bound, Setting: e.Setting, Shard: e.Shard.String()}
	if e.Err != nil {
		o.Error = e.Err.Error()
	}
	return json.Marshal(o)
}

// Summary is what a run did, counted.
type Summary struct {
	Listed    int           `json:"listed"`    // directories listed
	Got       int           `json:"got"`       // files fetched
	Unchanged int           `json:"unchanged"` // files the same here as there
	Skipped   int           `json:"skipped"`   // entries left alone for another reason (excluded, unsafe, a link, ...)
	Deleted   int           `json:"deleted"`   // local files and directories removed
	Errors    int           `json:"errors"`    // failures
	Bytes     int64         `json:"bytes"`     // bytes fetched (files got, and files fetched to compare)
	Duration  time.Duration `json:"-"`         // the whole run
	DryRun    bool          `json:"dry_run,omitempty"`
	// NoDelete says why deletions were not made, when Delete was asked.
	NoDelete string `json:"no_delete,omitempty"`
	// Shard is the run's shard ("1/4"), "" when the mirror is not split.
	Shard string `json:"shard,omitempty"`
	// Others counts the files the walk found that belong to the other
	// shards, left to them: no event is made of each.
	Others int `json:"other_shards,omitempty"`
	// Bounds are the bounds of the walk the run reached, in the order
	// it first met them, each with what it left out: a crawl cut short
	// says so even when it succeeds.
	Bounds []Bound `json:"bounds,omitempty"`
}

// MarshalJSON adds the event name and the duration in seconds.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	return json.Marshal(struct {
		Event string `json:"event"`
		plain
		Duration float64 `json:"duration_s"`
	}{"summary", plain(s), seconds(s.Duration)})
}

// seconds is d in seconds for JSON: divided, not Duration.Seconds, whose
// sum of whole and fractional parts writes 1.61s as 1.6099999999999999.
func seconds(d time.Duration) float64 { return float64(d) / float64(time.Second) }
