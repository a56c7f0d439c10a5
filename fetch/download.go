package fetch

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/urlget/urlget/schemes"
)

// DownloadOptions say how Download writes its file.
type DownloadOptions struct {
	// Resume continues a partial copy (curl's "-C -"): NAME.part when it
	// holds data, else an existing NAME (another tool's partial copy),
	// each only as far as the resume rule allows
	// (schemes.Request.MayResume). A destination that is not a regular
	// file has nothing to continue: Resume is then KindUsage.
	Resume bool
	// RemoteTime gives the file the server's modification time, when the
	// server tells it; without it the file has the time it was written,
	// as with curl. A destination written in place keeps its times. With a
	// Request's Listed time, that one is the file's when the server tells
	// none with the data (so no round trip is spent on one: FTP MDTM),
	// unless the data's size differs from the listed one (the listing was
	// of an older version).
	RemoteTime bool
	// Sync waits, before NAME.part is renamed to NAME, until its data is
	// on disk (fsync(2)), so that NAME is whole even after a power loss
	// or a crash of the machine right after Download returns; on Linux
	// the disk writes are started while the data arrives, 8 MiB at a
	// time, so that the fsync waits for the last ones only. Without it,
	// as with curl, wget, rsync and lftp, NAME is renamed as soon as the
	// data is complete and checked, and the kernel writes it to disk when
	// it will (within half a minute by default). A crash in that time can
	// leave NAME short or empty on file systems that do not write a
	// renamed file's data before the rename (ext4 does when NAME replaces
	// an existing file). Sync costs what the disk needs to write the
	// file: on a fast download to a slow disk, most of the time.
	Sync bool
	// ServerName names the file after the server's suggestion
	// (Result.SuggestedName: HTTP's Content-Disposition; curl's -J), in
	// NAME's directory, when the server gives one; NAME otherwise. A
	// suggestion that is not one plain file name (schemes.SafeName) fails
	// as KindSafety; a file of the suggested name is never replaced: the
	// download then fails as KindLocal with fs.ErrExist in its chain.
	// Either way the data is dropped. Not with Resume (KindUsage): the name
	// is not known until the server answers. A destination written in
	// place keeps its name. Result.Path is the file's name.
	ServerName bool
	// ResumePartOnly limits Resume to the work file: an existing NAME is
	// never continued in place. For a caller whose NAME is always a
	// complete copy, older perhaps but never partial (a mirror's).
	ResumePartOnly bool
	// WorkSuffix names the work file: NAME+WorkSuffix instead of
	// NAME.part (PartSuffix), for a caller that must tell work files
	// from every name a server may list (a mirror). It must start with
	// "." and hold no "/".
	WorkSuffix string
	// ContinueHint is how the error of a failed download that kept its
	// partial copy tells a person to continue it; "" says "continue with
	// -C -", the command's flag. A mirror says to run it again.
	ContinueHint string
	// Progress, if set, is called as data arrives, from the goroutine
	// that called Download: after every pass of at most 1 MiB, and at
	// least every 250 ms while data flows, with the bytes held so far
	// (those of a continued partial copy included) and the total size
	// (-1 when unknown).
	Progress func(done, total int64)
	// Segments, above 1, fetches a large file over that many connections
	// at once (at most MaxSegments), each asking for a range of it (HTTP
	// Range, FTP REST): see Client.Download. 0 or 1 is one
	// connection, except that Resume continues a copy made in segments
	// over as many as made it (over one with 1).
	Segments int
	// Render writes a listing as the file's content when the URL turns
	// out to designate a container (a directory, menu or group): how a
	// listing looks is the caller's choice. nil refuses containers with
	// KindUsage (use Client.List).
	Render func(w io.Writer, l schemes.Listing) error
}

// Result describes a completed download.
type Result struct {
	URL     schemes.Locator // where the data came from, after redirects
	Path    string          // the final file
	Bytes   int64           // bytes received by this call
	Size    int64           // the file's size
	Offset  int64           // bytes of the file that were already held before this call (0 when it started over)
	Type    string          // media type, when known
	ModTime time.Time       // the server's modification time, when known
	Listing bool            // the URL designated a container, written with Render
	// Mode is the representation the bytes came in (FTP TYPE "I" or
	// "A"), and ModeGuessed says it was guessed from the name.
	Mode        string
	ModeGuessed bool
	// NotModified says the resource did not change after
	// IfModifiedSince, and Changed that it changed after
	// IfUnmodifiedSince: nothing was written either way.
	NotModified, Changed bool
	// Resolution is how a resolving scheme (prospero) reached URL: its
	// chain, from the URL given to the URL fetched; nil without one.
	Resolution []string
	// Status is the server's reply code of the last attempt
	// (schemes.Response.Status), and Redirects the redirects it followed
	// (Response.Redirects): what curl's -w calls response_code and
	// num_redirects.
	Status, Redirects int
	// SuggestedName is the file name the server suggested for the
	// data (schemes.Response.SuggestedName), "" for none.
	SuggestedName string
	// Segments is how many connections carried data of a download made
	// in segments (DownloadOptions.Segments), 0 for one made over one.
	Segments int
	// Failure is set when the file is a server's error page, written as
	// the Request asked (ErrorPages): what the reply was
	// (schemes.Response.Failure).
	Failure error
	// Head is the last reply's head as the server sent it, and
	// RedirectHeads those of the redirects before it, where the handler
	// kept them (Response.Head and RedirectHeads: HTTP's).
	Head          string
	RedirectHeads []string
}

// Download retrieves raw into the file dest (NAME below).
//
// A regular file (or a NAME that does not exist yet) is written through
// its work file NAME.part, in NAME's directory, which is renamed to NAME
// only once the data is complete and checked (its size against the size
// the server announced, its SHA-256 where the server published one), and
// with Sync, on disk. Until then an existing NAME is never renamed,
// truncated, removed or replaced. NAME.part is taken exclusively: an
// flock(2) held for the whole download makes a second run on the same
// NAME fail at once (KindUsage, "NAME.part is in use by another urlget").
// NAME and NAME.part are opened without following a symbolic link in
// their last component (O_NOFOLLOW): a link at either is refused
// (KindSafety) and never written through, and so is a NAME.part that is
// not a regular file of one link.
//
// Without Resume, a NAME.part an earlier run left is started over (the
// Client's Notify says so), once the server answers. With Resume, a
// NAME.part holding data is continued; with no NAME.part, an existing
// NAME is continued in place: appended to while the server continues it,
// and, when the resume rule says start over, left as it was while the new
// copy goes to NAME.part and replaces it when complete and checked.
//
// A failure keeps what arrived, in NAME.part (with its resume record) or
// in the NAME being continued, and the error, which keeps its
// *schemes.Error kind and fields, ends with "the partial copy is kept in
// NAME.part: continue with -C -". Exceptions: a checksum mismatch
// (KindProtocol) removes NAME.part, or restores a continued NAME to its
// length before this run; so does a resource found larger than
// MaxFileSize (KindSafety) while it arrives — one whose announced size is
// larger is refused before anything is written. A local file error (the
// disk is full, the directory is missing or read-only) is KindLocal,
// names the local path, and is not retried. Failures marked retryable,
// including a transfer cut short, are tried again as the Client says,
// continuing from the bytes held when the server allows it.
//
// A destination that exists and is not a regular file — a device, a FIFO,
// a socket, a terminal, a symbolic link to one of them, or a descriptor
// name such as /dev/stdout (which may lead to the shell's "> file") — is
// opened as named and written in place: no work file, no rename, no lock,
// no Resume, no RemoteTime. Its bytes cannot be taken back, so a retry
// that the server answers from the start fails, and a checksum is
// checked on the bytes as they went out. A FIFO's open waits for a reader,
// as with curl.
//
// The copy moves data in passes of at most 1 MiB (see CopyBody), applying
// LimitRate and MaxFileSize, and reports progress between them.
//
// With Segments N > 1, a file of at least 8 MiB whose size the server
// announces, of a scheme that resumes (schemes.Resumes: ftp, http), comes
// over N connections at once, into NAME.part made full length first
// (fallocate(2) where it can), each connection writing its range at its
// offset. Ranges are claimed as the connections go: one that finishes
// continues with a range no one has taken, else takes over the end of
// the range that would finish last, so that a slow connection does not
// hold the end. NAME.part's resume record (an extended attribute) also
// says which ranges it holds, updated as they grow; Resume continues only
// the missing ones, while the resume rule says the remote is unchanged,
// and starts over otherwise. The whole file is then checked as ever (its
// size, the SHA-256 the server published) before the rename. A server
// that answers a range with the whole resource, a smaller file, an
// unknown size, a file system without extended attributes, or a
// destination written in place get one connection, silently (the Trace
// says why). LimitRate caps the connections together; Result.Segments
// says how many carried data.
func (c *Client) Download(ctx context.Context, raw, dest string, opt DownloadOptions) (*Result, error) {
	req, err := c.NewRequest(MethodGet, raw)
	if err != nil {
		return nil, err
	}
	return c.DownloadRequest(ctx, req, dest, opt)
}

// DownloadRequest is Download for a Request (a parsed URL, and what to
// ask of it: Listed, Exact, IfModifiedSince, IfUnmodifiedSince,
// WantModTime, a byte range). Download sets the Request's Partial from the
// file it continues, so req's must be zero (else KindUsage), and its
// Method must be MethodGet. A byte range (Offset, Length, Suffix, Ranges:
// see Request) makes the file those bytes exactly, or the server's reply
// to several ranges as it sent it; it is not with Resume or Segments
// (KindUsage), and a failure drops what arrived (a part of a range is no
// partial copy that Resume could continue). On failure after the server
// answered it returns the Result so far (what arrived, the media type,
// the URL after redirects) with the error; nil before that.
func (c *Client) DownloadRequest(ctx context.Context, req *Request, dest string, opt DownloadOptions) (*Result, error) {
	loc := req.URL
	if req.method() != MethodGet || req.Partial != (schemes.Partial{}) {
		return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: "a download is a get of a resource or a byte range of it (its file says where to continue: DownloadOptions.Resume)"}
	}
	if opt.ServerName && opt.Resume {
		return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Setting: SettingServerName, Msg: "a name the server chooses cannot be continued: no Resume with ServerName"}
	}
	rng := askedOf(req)
	if rng.ranged() && (opt.Resume || opt.Segments > 1) {
		return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Setting: SettingRange, Msg: "a byte range is fetched on its own: not with Resume, nor in Segments"}
	}
	ctx = c.withNext(ctx, req)
	t, err := c.openTarget(loc, dest, opt.Resume, opt.ResumePartOnly, opt.WorkSuffix)
	if err != nil {
		return nil, err
	}
	t.hint, t.ranged = opt.ContinueHint, rng.ranged()
	res := &Result{Path: dest, Offset: t.held}
	rs := c.newRetries() // the download's, its ranges' included
	err = c.retryUnder(ctx, rs, func(ctx context.Context, _ func(*Response)) error { return c.transfer(ctx, rng, t, res, opt, rs) }, func() string {
		if t.held == 0 {
			return ""
		}
		return fmt.Sprintf("; resuming at byte %d of %s", rng.first+t.held, t.name())
	})
	if err == nil && (res.NotModified || res.Changed) {
		return res, t.unchanged()
	}
	if err == nil || errors.Is(err, schemes.ErrBodyWritten) && t.mode == intoPart && t.held > 0 {
		// Complete, or a server's error page the caller asked to have
		// written (the http handler's FailWithBody, curl's
		// --fail-with-body): that page is the file, not a partial copy.
		res.Path = t.dest
		if nerr := finalName(loc, t, res, opt); nerr != nil {
			t.held = 0 // not a partial copy of any name to continue: dropped
			return res, t.fail(nerr)
		}
		stamp, mod := fileTime(req, opt, res)
		if cerr := t.commit(loc, stamp && err == nil, opt.Sync, mod); cerr != nil {
			return res, t.fail(cerr)
		}
		return res, err
	}
	if err != nil {
		if res.URL == nil {
			res = nil // the server never answered: there is nothing to report
		}
		return res, t.fail(err)
	}
	return res, nil
}

// transfer makes one attempt: fetch from what is held, append, verify.
// In segments, a range that fails is asked for again under rs, the
// download's retries.
func (c *Client) transfer(ctx context.Context, rng *asked, t *target, res *Result, opt DownloadOptions, rs *retries) error {
	loc := rng.req.URL
	warm := c.warm(ctx, loc, t, opt)
	defer warm.stop()
	asked := time.Now()
	if rng.ranged() && len(rng.req.Ranges) > 0 && t.held > 0 {
		// The reply to several ranges is not continued: asked again.
		if err := t.startOver(); err != nil {
			return localError(loc, "write", err)
		}
	}
	req, done := rng.next(t.resumeAt(), t.partial, c.Caps(loc).Has(schemes.Resumes))
	if done {
		return nil
	}
	req.WantModTime = req.WantModTime || opt.RemoteTime && !listedTime(&req)
	resp, err := c.once(ctx, req)
	if err == nil {
		req.answered(resp)
		err = rs.page(resp)
	}
	if err != nil {
		return err
	}
	defer resp.Close()
	res.URL, res.Type, res.ModTime = resp.URL, resp.Type, resp.ModTime
	res.Status, res.Redirects = resp.Status, resp.Redirects
	res.Failure, res.Head, res.RedirectHeads = resp.Failure, resp.Head, resp.RedirectHeads
	res.Mode, res.ModeGuessed = resp.Mode, resp.ModeGuessed
	res.SuggestedName = resp.SuggestedName
	if resp.Resolved != nil {
		res.Resolution = resp.Resolved.Chain
	}
	if resp.NotModified || resp.Changed {
		res.NotModified, res.Changed = resp.NotModified, resp.Changed
		return nil
	}
	if resp.Listing != nil {
		return c.renderInto(loc, t, resp, res, opt.Render)
	}
	if resp.Body == nil && resp.Resolved != nil && resp.Resolved.URL != "" {
		// Resolved to an interactive or sending scheme: nothing to save.
		return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resolve", Kind: schemes.KindUnsupported, URL: loc.Redacted(),
			Msg: "resolved to " + schemes.RedactString(resp.Resolved.URL) + ", which is started by hand, never downloaded"}
	}
	if err := c.refuseSize(loc, resp.End()-resp.first); err != nil { // a range's bytes, or the resource's
		return err
	}
	if n, err := c.segmentsFor(loc, t, resp, opt); err != nil || n > 0 {
		if err != nil {
			return err
		}
		// The readying began with the first request: wait for it as long
		// as that took, a second at least.
		wait := max(time.Since(asked), time.Second)
		return c.segmented(ctx, req, t, res, opt, resp, n, rs, func(ctx context.Context) { warm.ready(ctx, wait) })
	}
	warm.stop()
	if rng.ranged() {
		if err := c.settleRange(loc, rng, t, resp); err != nil {
			return err
		}
	} else if err := c.settleOffset(loc, t, resp.Offset); err != nil {
		return err
	}
	if resp.Offset == 0 {
		res.Offset = 0 // none of the bytes held before is in the file any more
	}
	end := resp.End()
	if end >= 0 {
		end -= resp.first // the range's bytes (Request.Offset, Length), or the resource's
	}
	// Record what the data is copied from before the first byte lands, so
	// that even a killed run leaves a partial copy the rule can judge (a
	// small one's, only if it fails: see record).
	t.record(recordOf(resp.Response), end)
	if t.mode == inPlace && t.held == 0 && resp.SHA256 != "" {
		t.hash = sha256.New()
	}
	cp := c.newCopier(ctx, loc, t.f, t.held, end, opt.Progress)
	if t.mode == inPlace {
		cp.hash = t.hash
	} else if opt.Sync {
		cp.wb = newWriteback(t.f) // the fsync will wait for these writes: start them now
	}
	n, err := cp.run(resp.Body)
	cp.wb.wait()
	t.moved(n)
	res.Bytes += n
	res.Size = t.held
	res.Status = resp.Status // the reply that ended the transfer (FTP's 226), where the handler has one
	if err != nil {
		return cp.classify(err)
	}
	want := resp.SHA256
	if t.mode == inPlace && t.hash == nil || rng.ranged() {
		want = "" // an earlier attempt sent the first bytes unsummed; a range is not what the sum covers
	}
	size := end
	if size < 0 && req.Listed != nil && !rng.ranged() {
		size = req.Listed.Size // the server announced none: the listing's
	}
	return verify(loc, t.held, size, t.sum, want)
}

// settleRange makes the file agree with where resp, the answer to a byte
// range, starts: at the range's first byte after the bytes held. An
// answer that does not continue them (the server sent the resource from
// its start, or it changed between attempts) drops them, and is read as
// an answer to the range from its start, as the first attempt's was.
func (c *Client) settleRange(loc schemes.Locator, rng *asked, t *target, resp *Response) error {
	if t.held > 0 && resp.Offset == rng.first+t.held {
		resp.first = rng.first
		return nil
	}
	if t.held > 0 {
		if t.mode == inPlace {
			return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol, URL: loc.Redacted(),
				Msg: fmt.Sprintf("asked to continue the range at byte %d, the server sent from byte %d; %d bytes of it are already written to %s and cannot be taken back",
					rng.first+t.held, resp.Offset, t.held, t.dest)}
		}
		c.notify("%s: the server did not continue the range (it sent from byte %d): starting it over", loc.Redacted(), resp.Offset)
		if err := t.startOver(); err != nil {
			return localError(loc, "write", err)
		}
		rng.reset()
		if err := c.cut(&rng.req, resp); err != nil {
			return err
		}
	}
	rng.place(resp)
	return c.settleOffset(loc, t, 0)
}

// settleOffset makes the bytes held agree with where the server's body
// starts: at the bytes held (it continues them), or at 0 (it starts over,
// and so does the file; a leftover not continued goes the same way).
func (c *Client) settleOffset(loc schemes.Locator, t *target, off int64) error {
	if off == t.held && !t.stale {
		return nil
	}
	if off != 0 && off != t.held {
		return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol,
			URL: loc.Redacted(), Msg: fmt.Sprintf("asked to resume at %d, server resumed at %d", t.held, off)}
	}
	if off != t.held {
		if t.mode == inPlace {
			return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol, URL: loc.Redacted(),
				Msg: fmt.Sprintf("the server sent the resource from its start again; %d bytes of it are already written to %s and cannot be taken back",
					t.held, t.dest)}
		}
		c.notify("%s: server sent the whole resource; starting over", loc.Redacted())
	}
	if err := t.startOver(); err != nil {
		return localError(loc, "write", err)
	}
	return nil
}

// localError is a local file that could not be made, written or
// renamed in phase ("open", "write", "rename", ...): KindLocal, whatever
// the system said (no such directory, permission denied, a read-only or
// full file system), for it is never the server's doing — a script must
// not take "cannot create /proc/x" for a missing remote file, nor EACCES
// for a login refused. The message names the local path and the
// system's reason; the *fs.PathError stays in the chain.
func localError(loc schemes.Locator, phase string, err error) error {
	msg, reason := "local file", err
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		msg, reason = localVerb(phase)+" local file "+pe.Path, pe.Err
	case errors.As(err, &le):
		msg, reason = fmt.Sprintf("cannot rename local file %s to %s", le.Old, le.New), le.Err
	}
	return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: phase, Kind: schemes.KindLocal, URL: loc.Redacted(),
		Msg: msg, Err: schemes.Reason(reason.Error(), err)}
}

// localVerb says what a phase of localError failed to do.
func localVerb(phase string) string {
	switch phase {
	case "open":
		return "cannot create"
	case "sync":
		return "cannot sync"
	case "remote-time":
		return "cannot set the time of"
	case "verify":
		return "cannot read back"
	}
	return "cannot write"
}

// renderInto writes a listing into the file with render.
func (c *Client) renderInto(loc schemes.Locator, t *target, resp *Response, res *Result, render func(io.Writer, schemes.Listing) error) error {
	if render == nil {
		return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: "the URL designates a listing, and no Render was given to write it"}
	}
	if err := c.settleOffset(loc, t, 0); err != nil {
		return err
	}
	t.listing, res.Listing, res.Offset = true, true, 0
	if err := render(t, resp.Listing); err != nil {
		var se *schemes.Error
		if errors.As(err, &se) {
			return withURL(err, loc)
		}
		return localError(loc, "write", err)
	}
	res.Size, res.Bytes = t.held, t.held
	return nil
}

// listedTime says whether req.Listed gives the file a time.
func listedTime(req *Request) bool { return req.Listed != nil && !req.Listed.ModTime.IsZero() }

// fileTime is whether the file gets a time of the server's (RemoteTime),
// and which: the one the server gave with the data, else the listing's
// when the data is the version listed.
func fileTime(req *Request, o DownloadOptions, res *Result) (bool, time.Time) {
	switch {
	case !o.RemoteTime:
		return false, time.Time{}
	case !res.ModTime.IsZero():
		return true, res.ModTime
	case listedTime(req) && (req.Listed.Size < 0 || req.Listed.Size == res.Size):
		return true, req.Listed.ModTime
	}
	return false, time.Time{}
}
