package fetch

import (
	"encoding/json"
	"os"

	"github.com/urlget/urlget/schemes"
)

// recordAttr is the extended attribute of a work file that holds its
// schemes.ResumeRecord: what the partial data was copied from. An
// attribute travels with the file through renames and needs no second
// name that a remote file could collide with; where the file system has no
// user attributes the record is simply absent, and the partial copy is
// then judged as one another tool made (schemes.Request.MayResume).
const recordAttr = "user.urlget.resume"

// maxRecord bounds what readRecord accepts: a record is a few dozen
// bytes, a segmented download's a few hundred (writeSegmentRecord keeps
// it under this).
const maxRecord = 4 << 10

// partRecord is the record as stored: what the data was copied from, and
// for a copy made in segments (Segments > 0) which byte ranges of the
// file hold data (Done). Such a file is as long as the resource from its
// first byte on, holes included, so its length says nothing of what it
// holds: Done does.
type partRecord struct {
	schemes.ResumeRecord
	// Segments is how many connections the copy was made over; 0 for a
	// copy written from its start, whose length is what it holds.
	Segments int `json:"segments,omitempty"`
	// Done are the ranges written, sorted and apart.
	Done spans `json:"done,omitempty"`
}

// writeRecord stores rec on f, best effort.
func writeRecord(f *os.File, rec schemes.ResumeRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return setAttr(f, recordAttr, b)
}

// readRecord returns the record stored on f, nil when there is none or it
// does not parse (a record is advice; a bad one is no record).
func readRecord(f *os.File) *schemes.ResumeRecord {
	if p := readPartRecord(f); p != nil {
		return &p.ResumeRecord
	}
	return nil
}

// readPartRecord is readRecord with the ranges of a segmented copy.
func readPartRecord(f *os.File) *partRecord {
	b, err := getAttr(f, recordAttr, maxRecord)
	if err != nil || len(b) == 0 {
		return nil
	}
	rec := &partRecord{ResumeRecord: schemes.ResumeRecord{Size: -1}}
	if json.Unmarshal(b, rec) != nil {
		return nil
	}
	return rec
}

// recordOf is what a response says about the data it carries.
func recordOf(r *schemes.Response) schemes.ResumeRecord {
	return schemes.ResumeRecord{ModTime: r.ModTime, Size: r.Size, ETag: r.ETag, Mode: r.Mode}
}
