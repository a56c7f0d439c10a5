package file

import (
	"io/fs"
	"time"

	"github.com/urlget/urlget/schemes"
)

// resumeOffset is where a retrieval of the file fi starts: req.Offset when
// the one resume rule (schemes.Request.MayResume) lets the partial copy be
// continued, else 0, so that stale data is never appended to. The reason
// goes to tr either way.
func resumeOffset(req *schemes.Request, fi fs.FileInfo, tr schemes.Trace) int64 {
	if req.Offset <= 0 || req.Ranged() {
		return 0
	}
	remote := schemes.Remote{ModTime: remoteTime(fi, req.Partial.ModTime), Precision: timePrecision, Size: fi.Size()}
	ok, why := req.MayResume(remote)
	if !ok {
		tr.Info(why + "; sending the file from the start")
		return 0
	}
	if why != "" {
		tr.Info(why)
	}
	return req.Offset
}

// remoteTime is the modification time the resume rule is given for fi.
//
// A file's change time (ctime) counts as its modification time: a file
// replaced by another (mv, cp -p, tar, rsync -t) is new even though its
// mtime is old, and only its ctime says so. So when the ctime is later
// than the mtime and than the partial copy (copied: when the copy's last
// byte was written; zero if unknown), the ctime is given: the file changed
// after the copy was made, and the rule sees it newer than the copy, or
// different from its record. Otherwise the mtime is given. That is what
// urlget records for a copy it makes (Response.ModTime, also what -R
// sets), so a record still matches a file that has not changed since the
// copy but whose ctime is later than its mtime, as it is for every file
// unpacked or copied with its times. For a copy without a record this is
// the same decision as giving the later of the two times, since neither
// is then later than the copy. Where the system keeps no ctime (see
// changeTime), the mtime is all there is.
func remoteTime(fi fs.FileInfo, copied time.Time) time.Time {
	mtime, ctime := fi.ModTime(), changeTime(fi)
	if ctime.After(mtime) && (copied.IsZero() || ctime.After(copied)) {
		return ctime
	}
	return mtime
}

// conditionNote is the trace's note for a file a time condition leaves
// unsent: notModified, or changed.
func conditionNote(notModified bool, fi fs.FileInfo) string {
	when := fi.ModTime().UTC().Format(time.RFC3339Nano)
	if notModified {
		return "not modified since the time asked (mtime " + when + "): nothing sent"
	}
	return "modified after the time asked (mtime " + when + "): nothing sent"
}
