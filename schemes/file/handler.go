package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"

	"github.com/urlget/urlget/schemes"
)

// Handler retrieves file URLs.
//
// A local file is opened and streamed; a local directory is listed. A file
// URL on another host is answered with a redirect to ftp://host/path, the
// rule of CERN libwww (RFC 1738 §3.10 says file URLs name no access method,
// and FTP is the one a remote file system most likely offers): the fetch
// client follows it, applying its redirect limit and safety policy, and
// tells the user. The Handler holds configuration only and is safe for
// concurrent use.
type Handler struct {
	// NoFTP refuses file URLs on another host (KindUnsupported) instead of
	// redirecting them to ftp (the --no-file-ftp flag).
	NoFTP bool

	// words name the no-file-ftp option in the refusal as the caller
	// does (the declaration's Values).
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
	_ schemes.Stater    = (*Handler)(nil)
)

// Fetch opens the local file or directory req.URL names, or redirects a
// remote one to ftp. For a file, Body is the open file positioned at
// req.Offset when the resume rule allows or the request is a byte range
// (for the last N bytes, where they start; Response.Offset says where it
// starts, and the caller stops at the range's end); a file whose mtime
// fails a time condition is NotModified or Changed, with no bytes. For
// a directory, Listing streams its entries (see List) and Body is nil.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	f, tr, err := h.start(ctx, req)
	if err != nil {
		return nil, err
	}
	if !isLocal(f) {
		return h.remote(f, tr)
	}
	file, fi, err := open(f)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return directory(ctx, f, file, fi), nil
	}
	if !fi.Mode().IsRegular() {
		// A FIFO or device would block or never end; a fetch names data.
		file.Close()
		return nil, &schemes.Error{Scheme: "file", Phase: "open", Kind: schemes.KindUnsupported,
			Msg: fmt.Sprintf("%s is not a regular file (%s)", f.Path, fi.Mode().Type())}
	}
	resp := &schemes.Response{Kind: schemes.EntryFile, Size: fi.Size(), ModTime: fi.ModTime(), Precision: timePrecision,
		Name: baseName(f.Path)}
	if notModified, changed := req.TimeCondition(fi.ModTime(), timePrecision); notModified || changed {
		file.Close()
		tr.Info(conditionNote(notModified, fi))
		resp.NotModified, resp.Changed, resp.Body = notModified, changed, io.NopCloser(strings.NewReader(""))
		return resp, nil
	}
	off := resumeOffset(req, fi, tr)
	if req.Ranged() {
		if err := req.RangeError("file", fi.Size(), 0); err != nil {
			file.Close()
			return nil, err
		}
		off = req.Offset
		if req.Suffix > 0 {
			off = max(fi.Size()-req.Suffix, 0)
		}
	}
	if off > 0 {
		if _, err := file.Seek(off, io.SeekStart); err != nil {
			file.Close()
			return nil, fsError(f, "seek", err)
		}
		resp.Offset = off
	}
	resp.Body = &ctxFile{ctx: ctx, f: file, loc: f}
	return resp, nil
}

// List returns a Response whose Listing streams the entries of the local
// directory req.URL names, in the order the file system returns them
// (callers sort). A file URL on another host is answered with the same
// redirect to ftp as Fetch gives; a path that is not a directory fails
// with KindUsage.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	f, tr, err := h.start(ctx, req)
	if err != nil {
		return nil, err
	}
	if !isLocal(f) {
		return h.remote(f, tr)
	}
	dir, fi, err := open(f)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		dir.Close()
		return nil, &schemes.Error{Scheme: "file", Phase: "list", Kind: schemes.KindUsage, Part: "path",
			Msg: fmt.Sprintf("%s is not a directory", f.Path)}
	}
	return directory(ctx, f, dir, fi), nil
}

// Stat describes what req.URL names without opening it: os.Lstat, so a
// symbolic link is EntryLink (a path ending in "/" is the directory it
// points to). Size is known for regular files only. A file URL on another
// host is answered with the same redirect to ftp as Fetch gives.
func (h *Handler) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	f, tr, err := h.start(ctx, req)
	if err != nil {
		return nil, err
	}
	if !isLocal(f) {
		return h.remote(f, tr)
	}
	fi, err := os.Lstat(f.Path)
	if err != nil {
		return nil, fsError(f, "stat", err)
	}
	r := &schemes.Response{ModTime: fi.ModTime(), Precision: timePrecision, Name: baseName(f.Path)}
	r.Kind, r.Size = kindOf(fi)
	return r, nil
}

// open opens what f names and reads its file information.
func open(f *URL) (*os.File, fs.FileInfo, error) {
	file, err := os.Open(f.Path)
	if err != nil {
		return nil, nil, fsError(f, "open", err)
	}
	fi, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, nil, fsError(f, "stat", err)
	}
	return file, fi, nil
}

// Explain returns the plan: "open /path" (and "seek N" when resuming),
// "readdir /path/" for a URL ending in "/", or "redirect ftp://host/path"
// for another host. Whether a path without a trailing "/" is a directory is
// only known by looking, which Explain does not do.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	f, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if !isLocal(f) {
		if h.NoFTP {
			return nil, h.noFTPError(f)
		}
		return []string{"redirect " + f.FTP()}, nil
	}
	if strings.HasSuffix(f.Path, "/") {
		return []string{"readdir " + show(f.Path)}, nil
	}
	plan := []string{"open " + show(f.Path)}
	if !req.IfModifiedSince.IsZero() || !req.IfUnmodifiedSince.IsZero() {
		plan = append(plan, "compare the file's mtime with the time condition")
	}
	switch {
	case req.Suffix > 0:
		plan = append(plan, fmt.Sprintf("seek to %d bytes before the end", req.Suffix))
	case req.Offset > 0:
		plan = append(plan, "seek "+strconv.FormatInt(req.Offset, 10))
	}
	if req.Length > 0 {
		plan = append(plan, fmt.Sprintf("read %d bytes", req.Length))
	}
	return plan, nil
}

// start checks the request and returns its typed URL and a usable Trace.
func (h *Handler) start(ctx context.Context, req *schemes.Request) (*URL, schemes.Trace, error) {
	f, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, ctxError(f, "open", err)
	}
	tr := req.Trace
	if tr == nil {
		tr = schemes.NopTrace{}
	}
	return f, tr, nil
}

// remote answers a file URL on another host with a redirect to ftp.
func (h *Handler) remote(f *URL, tr schemes.Trace) (*schemes.Response, error) {
	if h.NoFTP {
		return nil, h.noFTPError(f)
	}
	to := f.FTP()
	tr.Info(fmt.Sprintf("host %q is not this machine; retrieving %s instead (RFC 1738 §3.10, libwww)", f.Host, to))
	return &schemes.Response{Size: -1, Redirect: to}, nil
}

func (h *Handler) noFTPError(f *URL) error {
	return &schemes.Error{Scheme: "file", Phase: "redirect", Kind: schemes.KindUnsupported, Part: "host",
		Msg: fmt.Sprintf("host %q is not this machine, and %s forbids retrieving %s instead", f.Host, h.words.Option("no-file-ftp"), f.FTP())}
}

// isLocal reports whether f names this machine: the RFC 1738 special forms,
// or the host's own name (RFC 1738 §3.10: <host> is "the fully qualified
// domain name of the system on which the <path> is accessible").
func isLocal(f *URL) bool {
	if f.Local() {
		return true
	}
	name, err := os.Hostname()
	return err == nil && strings.EqualFold(strings.TrimSuffix(f.Host, "."), strings.TrimSuffix(name, "."))
}

// fsError turns a file system error into a *schemes.Error whose kind
// matches it, so errors.Is(err, fs.ErrNotExist) still holds.
func fsError(f *URL, phase string, err error) error {
	kind := schemes.KindOther
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		kind = schemes.KindNotFound
	case errors.Is(err, fs.ErrPermission):
		kind = schemes.KindPermission
	case errors.Is(err, syscall.ENAMETOOLONG):
		kind = schemes.KindUsage
	}
	return &schemes.Error{Scheme: "file", Phase: phase, Kind: kind, Part: partOf(kind), Err: err}
}

func partOf(k schemes.Kind) string {
	if k == schemes.KindUsage {
		return "path"
	}
	return ""
}

func ctxError(f *URL, phase string, err error) error {
	kind := schemes.KindCanceled
	if errors.Is(err, context.DeadlineExceeded) {
		kind = schemes.KindTimeout
	}
	return &schemes.Error{Scheme: "file", Phase: phase, Kind: kind, Err: err}
}

// baseName is the last element of p, "" for the root.
func baseName(p string) string {
	if b := path.Base(p); b != "/" {
		return b
	}
	return ""
}

// show writes a path for a plan line, quoted when it holds characters that
// would make the line ambiguous.
func show(p string) string {
	for i := 0; i < len(p); i++ {
		if p[i] < 0x20 || p[i] == 0x7F {
			return strconv.Quote(p)
		}
	}
	return p
}

// ctxFile is the Body of a local file: reads stop once ctx is done, as the
// Handler contract requires even though the disk never blocks for long.
type ctxFile struct {
	ctx context.Context
	f   *os.File
	loc *URL
}

func (c *ctxFile) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, ctxError(c.loc, "read", err)
	}
	n, err := c.f.Read(p)
	if err != nil && err != io.EOF {
		err = fsError(c.loc, "read", err)
	}
	return n, err
}

// WriteTo hands the open file itself to w's ReadFrom when w has one, so
// that a copy into a file or pipe runs in the kernel (copy_file_range,
// sendfile, splice) instead of through a buffer. The fetch package's
// copier takes it in bounded passes and checks ctx between them; the
// context is checked here once before the file is handed over.
func (c *ctxFile) WriteTo(w io.Writer) (int64, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, ctxError(c.loc, "read", err)
	}
	rf, ok := w.(io.ReaderFrom)
	if !ok {
		return io.Copy(w, struct{ io.Reader }{c})
	}
	// The error is the file system's own (*fs.PathError, saying whether
	// the read or the write failed), which the caller classifies.
	return rf.ReadFrom(c.f)
}

func (c *ctxFile) Close() error { return c.f.Close() }
