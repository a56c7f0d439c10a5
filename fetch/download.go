package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/urlget/urlget/schemes"
)

// PartSuffix is appended to a download's final name for the partial file a
// resumable download keeps while it is incomplete.
const PartSuffix = ".part"

// DownloadOptions say how Download writes its file.
type DownloadOptions struct {
	// Resume continues a partial download: from dest+".part" if it exists,
	// else from an existing dest (as curl's "-C -" does). The partial data
	// is kept after a failure so a later Resume continues it. Without
	// Resume, a failed download leaves nothing behind.
	Resume bool
	// RemoteTime sets the file's modification time to the server's.
	RemoteTime bool
	// Progress, if set, is called as data arrives with the bytes held so
	// far and the total size (-1 when unknown).
	Progress func(done, total int64)
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
}

// Download retrieves raw into the file dest. The data is written to a
// temporary file in dest's directory and renamed to dest only once it is
// complete and verified (its size against the size the server announced,
// and its SHA-256 where the server published one). A failed download never
// leaves a file under dest. Failures marked retryable, including a transfer
// cut short, are tried again as the Client says, resuming where the scheme
// allows.
func (c *Client) Download(ctx context.Context, raw, dest string, opt DownloadOptions) (*Result, error) {
	loc, err := c.Parse(raw)
	if err != nil {
		return nil, err
	}
	return c.DownloadLocator(ctx, loc, dest, opt)
}

// DownloadLocator is Download for an already parsed URL.
func (c *Client) DownloadLocator(ctx context.Context, loc schemes.Locator, dest string, opt DownloadOptions) (*Result, error) {
	w, err := openWork(dest, opt.Resume)
	if err != nil {
		return nil, localError(loc, "open", err)
	}
	if w.held > 0 {
		c.notify("%s: resuming at byte %d", dest, w.held)
	}
	res := &Result{Path: dest, Offset: w.held}
	err = c.retry(ctx, func() error { return c.transfer(ctx, loc, w, res, opt) })
	if err == nil {
		err = w.finish(dest)
	}
	if err != nil {
		w.abandon(opt.Resume && !errors.Is(err, errCorrupt))
		return nil, err
	}
	if opt.RemoteTime && !res.ModTime.IsZero() {
		if err := os.Chtimes(dest, res.ModTime, res.ModTime); err != nil {
			return res, localError(loc, "remote-time", err)
		}
	}
	return res, nil
}

var errCorrupt = errors.New("downloaded data does not match the server's checksum")

// transfer makes one attempt: fetch from what is held, append, verify.
func (c *Client) transfer(ctx context.Context, loc schemes.Locator, w *workFile, res *Result, opt DownloadOptions) error {
	resp, err := c.GetLocator(ctx, loc, Resume{Offset: w.held, Partial: w.partial})
	if err != nil {
		return err
	}
	defer resp.Close()
	res.URL, res.Type, res.ModTime = resp.URL, resp.Type, resp.ModTime
	if resp.Listing != nil {
		return c.renderInto(loc, w, resp, res, opt.Render)
	}
	if resp.Offset != w.held {
		if resp.Offset != 0 {
			return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol,
				URL: loc.Redacted(), Msg: fmt.Sprintf("asked to resume at %d, server resumed at %d", w.held, resp.Offset)}
		}
		c.notify("%s: server sent the whole resource; starting over", loc.Redacted())
		if err := w.reset(); err != nil {
			return localError(loc, "write", err)
		}
		res.Offset = 0 // none of the bytes held is in the file any more
	}
	// Record what the data is copied from before the first byte lands, so
	// that even a killed run leaves a partial copy the rule can judge.
	w.record(recordOf(resp.Response))
	progress := opt.Progress
	total := resp.Size
	var dst io.Writer = w
	if progress != nil {
		progress(w.held, total)
		dst = &progressWriter{w: w, done: w.held, total: total, fn: progress}
	}
	n, err := io.Copy(dst, resp.Body)
	res.Bytes += n
	res.Size = w.held
	if err != nil {
		return interrupted(loc, err)
	}
	if total >= 0 && w.held != total {
		return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "verify", Kind: schemes.KindProtocol, Retryable: true,
			URL: loc.Redacted(), Msg: fmt.Sprintf("transfer truncated: got %d of %d bytes", w.held, total)}
	}
	if resp.SHA256 != "" {
		sum, err := w.sum()
		if err != nil {
			return localError(loc, "verify", err)
		}
		if sum != resp.SHA256 {
			return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "verify", Kind: schemes.KindProtocol,
				URL: loc.Redacted(), Msg: fmt.Sprintf("SHA-256 %s, server says %s", sum, resp.SHA256), Err: errCorrupt}
		}
	}
	return nil
}

// interrupted classifies a failure while copying a body: a local write
// error (the disk is full) is the local file's; anything else the handler
// has not classified is a transfer that broke (exit 5, retryable), the
// same for every scheme.
func interrupted(loc schemes.Locator, err error) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "write" {
		return localError(loc, "write", err)
	}
	e := schemes.IOError(loc.Generic().Scheme, "transfer", err).(*schemes.Error)
	e.URL = loc.Redacted()
	if e.Kind == schemes.KindOther {
		e.Kind, e.Retryable = schemes.KindConnect, true
	}
	if e.Msg == "" || e.Kind != schemes.KindCanceled {
		e.Msg = "transfer interrupted"
	}
	return e
}

func localError(loc schemes.Locator, phase string, err error) error {
	kind := schemes.KindOther
	switch {
	case errors.Is(err, fs.ErrPermission):
		kind = schemes.KindPermission
	case errors.Is(err, fs.ErrNotExist):
		kind = schemes.KindNotFound
	}
	return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: phase, Kind: kind, URL: loc.Redacted(),
		Msg: "local file", Err: err}
}

// workFile is where a download's data accumulates before it is renamed
// into place.
type workFile struct {
	f       *os.File
	held    int64           // bytes in f
	partial schemes.Partial // what is known of the bytes held, for the resume rule
}

func openWork(dest string, resume bool) (*workFile, error) {
	if !resume {
		f, err := createTemp(dest)
		if err != nil {
			return nil, err
		}
		return &workFile{f: f}, nil
	}
	part := dest + PartSuffix
	if _, err := os.Stat(part); errors.Is(err, fs.ErrNotExist) {
		// curl's "-C -" resumes the output file itself: adopt it as the
		// partial data, so dest only ever names complete files.
		if st, err := os.Stat(dest); err == nil && st.Mode().IsRegular() {
			if err := os.Rename(dest, part); err != nil {
				return nil, err
			}
		}
	}
	f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	w := &workFile{f: f, held: st.Size()}
	if w.held > 0 {
		w.partial = schemes.Partial{ModTime: st.ModTime(), Record: readRecord(f)}
	}
	if _, err := f.Seek(w.held, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// createTemp makes a new hidden file beside dest. Unlike os.CreateTemp
// (mode 0600) it asks for 0666, so the finished file gets the permissions
// the user's umask gives every new file, as with curl and wget.
func createTemp(dest string) (*os.File, error) {
	dir, base := filepath.Split(dest)
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.urlget-%d", base, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("cannot create a temporary file beside %s", dest)
}

func (w *workFile) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.held += int64(n)
	return n, err
}

// ReadFrom lets io.Copy hand the file to the source directly (sendfile or
// splice where the body is a plain connection or file).
func (w *workFile) ReadFrom(r io.Reader) (int64, error) {
	n, err := w.f.ReadFrom(r)
	w.held += n
	return n, err
}

// record stores what the data being written is copied from, as the
// work file's resume record, and remembers it for a retry within this run.
// Failing to store it (no extended attributes) only means a later run
// judges the partial copy without it.
func (w *workFile) record(rec schemes.ResumeRecord) {
	w.partial.Record = &rec
	writeRecord(w.f, rec)
}

func (w *workFile) reset() error {
	if err := w.f.Truncate(0); err != nil {
		return err
	}
	_, err := w.f.Seek(0, io.SeekStart)
	w.held, w.partial = 0, schemes.Partial{}
	return err
}

func (w *workFile) sum() (string, error) {
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, w.f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// finish makes the data durable and gives it its final name.
func (w *workFile) finish(dest string) error {
	if err := w.f.Sync(); err != nil {
		return err
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	return os.Rename(w.f.Name(), dest)
}

// abandon closes the work file and removes it unless keep is set.
func (w *workFile) abandon(keep bool) {
	w.f.Close()
	if !keep {
		os.Remove(w.f.Name())
	}
}

// progressWriter reports what reaches the work file to a progress func.
type progressWriter struct {
	w           *workFile
	done, total int64
	fn          func(int64, int64)
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.done += int64(n)
	p.fn(p.done, p.total)
	return n, err
}

// ReadFrom passes a body's splice through to the work file, reporting per
// call.
func (p *progressWriter) ReadFrom(r io.Reader) (int64, error) {
	n, err := p.w.ReadFrom(r)
	p.done += n
	p.fn(p.done, p.total)
	return n, err
}

// renderInto writes a listing into the work file with render.
func (c *Client) renderInto(loc schemes.Locator, w *workFile, resp *Response, res *Result, render func(io.Writer, schemes.Listing) error) error {
	if render == nil {
		return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: "the URL designates a listing, and no Render was given to write it"}
	}
	if err := w.reset(); err != nil {
		return localError(loc, "write", err)
	}
	res.Listing = true
	if err := render(w, resp.Listing); err != nil {
		var se *schemes.Error
		if errors.As(err, &se) {
			return err
		}
		return localError(loc, "write", err)
	}
	res.Size, res.Bytes = w.held, w.held
	return nil
}
