package schemes

import (
	"fmt"
	"time"
)

// ResumeRecord is what urlget records about a partial copy it makes: what
// the data was copied from, as the server described it. The fetch package
// keeps it with the work file and gives it back in Partial.Record, so that
// the copy is continued only while the remote still matches.
type ResumeRecord struct {
	ModTime time.Time `json:"modtime,omitzero"` // the server's modification time, zero if unknown
	Size    int64     `json:"size"`             // the server's full size, -1 if unknown
	ETag    string    `json:"etag,omitempty"`   // an HTTP entity tag, "" if none
	Mode    string    `json:"mode,omitempty"`   // the representation ("I" or "A" for FTP TYPE), "" if the scheme has one
}

// Partial describes the local data a resumed retrieval would continue;
// Request.Offset says how many bytes of it there are.
type Partial struct {
	// ModTime is the partial copy's own modification time (the time its
	// last byte was written), used for copies without a Record.
	ModTime time.Time
	// Record is urlget's record of the copy, nil for a copy another tool
	// made (curl, wget, head -c).
	Record *ResumeRecord
	// Work says the data is in urlget's work file (NAME.part), which
	// urlget renames once the copy is complete: without a Record, one as
	// long as the remote is no partial copy to trust (a copy made in
	// segments is that long from its start, gaps included, and only its
	// record says which ranges it holds).
	Work bool
}

// Remote is what a handler knows of the remote resource when it decides
// whether to continue a partial copy. Unknown values are zero (ModTime),
// -1 (Size) or "" (ETag, Mode).
type Remote struct {
	ModTime time.Time
	// Precision is how exact ModTime is (MDTM and HTTP dates: a second).
	Precision time.Duration
	Size      int64
	ETag      string
	Mode      string
}

// MayResume is the one resume rule of every scheme that resumes (ftp,
// http, file). It says whether the Offset bytes of req.Partial may be
// continued from a remote resource that is now as r says, and why not
// (or, when it continues without knowing, why that is so), for -v:
//
//   - a remote shorter than the data held is never continued;
//   - a work file without a record that is as long as the remote is
//     never continued: it may be a copy made in segments whose record
//     was lost (copied by a tool that drops extended attributes), whose
//     gaps would otherwise pass for data;
//   - a copy urlget recorded is continued only while the remote matches the
//     record: the same ETag, representation, modification time (within a
//     second) and size, as far as both sides know them;
//   - a copy another tool made is continued when the remote is not newer
//     than the copy (lftp's rule);
//   - when nothing about the remote's time or identity is known, the copy
//     is continued, as curl does, and the reason says so.
func (req *Request) MayResume(r Remote) (ok bool, reason string) {
	off := req.Offset
	if off <= 0 {
		return false, ""
	}
	if r.Size >= 0 && r.Size < off {
		return false, fmt.Sprintf("the remote (%d bytes) is shorter than the partial copy (%d bytes)", r.Size, off)
	}
	if req.Partial.Work && req.Partial.Record == nil && r.Size >= 0 && off >= r.Size {
		return false, fmt.Sprintf("the work file holds all %d bytes but no record of what they are "+
			"(a copy made in segments has gaps until it is complete); starting over", off)
	}
	prec := max(r.Precision, time.Second)
	if rec := req.Partial.Record; rec != nil {
		known := false
		if rec.ETag != "" && r.ETag != "" {
			if rec.ETag != r.ETag {
				return false, fmt.Sprintf("the remote's ETag changed (%s, was %s)", r.ETag, rec.ETag)
			}
			known = true
		}
		if rec.Mode != "" && r.Mode != "" && rec.Mode != r.Mode {
			return false, fmt.Sprintf("the partial copy was made in mode %s, this transfer uses %s", rec.Mode, r.Mode)
		}
		if !rec.ModTime.IsZero() && !r.ModTime.IsZero() {
			if !sameTime(rec.ModTime, r.ModTime, prec) {
				return false, fmt.Sprintf("the remote changed since the partial copy was made (modified %s, was %s)",
					stamp(r.ModTime), stamp(rec.ModTime))
			}
			known = true
		}
		if rec.Size >= 0 && r.Size >= 0 {
			if rec.Size != r.Size {
				return false, fmt.Sprintf("the remote's size changed (%d bytes, was %d)", r.Size, rec.Size)
			}
			known = true
		}
		if !known {
			return true, "nothing is known about the remote to compare with the partial copy's record; continuing it as curl would"
		}
		return true, "the remote matches the partial copy's record"
	}
	if r.ModTime.IsZero() || req.Partial.ModTime.IsZero() {
		return true, "the remote's modification time is unknown; continuing the partial copy as curl would"
	}
	if r.ModTime.Truncate(prec).After(req.Partial.ModTime) {
		return false, fmt.Sprintf("the remote (modified %s) is newer than the partial copy (%s)",
			stamp(r.ModTime), stamp(req.Partial.ModTime))
	}
	return true, "the remote is not newer than the partial copy"
}

func sameTime(a, b time.Time, prec time.Duration) bool {
	return a.Truncate(prec).Equal(b.Truncate(prec))
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
