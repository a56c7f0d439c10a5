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
	"time"

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
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
)

// Fetch opens the local file or directory req.URL names, or redirects a
// remote one to ftp. For a file, Body is the open file positioned at
// req.Offset (Response.Offset says where it starts); for a directory,
// Entries lists it and Body is the listing, one name a line.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	f, tr, err := h.start(ctx, req)
	if err != nil {
		return nil, err
	}
	if !isLocal(f) {
		return h.remote(f, tr)
	}
	file, err := os.Open(f.Path)
	if err != nil {
		return nil, fsError(f, "open", err)
	}
	fi, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, fsError(f, "stat", err)
	}
	if fi.IsDir() {
		file.Close()
		return h.directory(ctx, f, fi)
	}
	if !fi.Mode().IsRegular() {
		// A FIFO or device would block or never end; a fetch names data.
		file.Close()
		return nil, &schemes.Error{Scheme: "file", Phase: "open", Kind: schemes.KindUnsupported, URL: f.Redacted(),
			Msg: fmt.Sprintf("%s is not a regular file (%s)", f.Path, fi.Mode().Type())}
	}
	resp := &schemes.Response{Size: fi.Size(), ModTime: fi.ModTime(), Name: baseName(f.Path)}
	if off := resumeOffset(req, fi, tr); off > 0 {
		if _, err := file.Seek(off, io.SeekStart); err != nil {
			file.Close()
			return nil, fsError(f, "seek", err)
		}
		resp.Offset = off
	}
	resp.Body = &ctxFile{ctx: ctx, f: file, loc: f}
	return resp, nil
}

// resumeOffset is where a resumed retrieval starts: req.Offset, unless the
// file changed since the local copy was written (its modification time is
// later than req.ResumeModTime, compared to the second as HTTP dates are)
// or is shorter than the offset, in which case everything is sent again so
// that stale data is never appended to.
func resumeOffset(req *schemes.Request, fi fs.FileInfo, tr schemes.Trace) int64 {
	off := req.Offset
	if off <= 0 {
		return 0
	}
	if !req.ResumeModTime.IsZero() && fi.ModTime().Truncate(time.Second).After(req.ResumeModTime.Truncate(time.Second)) {
		tr.Info("file changed since the partial copy was written; sending it from the start")
		return 0
	}
	if off > fi.Size() {
		tr.Info(fmt.Sprintf("file is shorter (%d bytes) than the resume offset %d; sending it from the start", fi.Size(), off))
		return 0
	}
	return off
}

// List returns the entries of the local directory req.URL names, sorted by
// name. A file URL on another host cannot be listed here: List has no way
// to redirect, so it fails with KindUnsupported naming the ftp URL to list.
func (h *Handler) List(ctx context.Context, req *schemes.Request) ([]schemes.Entry, error) {
	f, _, err := h.start(ctx, req)
	if err != nil {
		return nil, err
	}
	if !isLocal(f) {
		return nil, &schemes.Error{Scheme: "file", Phase: "list", Kind: schemes.KindUnsupported, URL: f.Redacted(),
			Msg: fmt.Sprintf("host %q is not this machine; list %s instead", f.Host, f.FTP())}
	}
	return readDir(ctx, f)
}

// Explain returns the plan: "open /path" (and "seek N" when resuming),
// "readdir /path/" for a URL ending in "/", or "redirect ftp://host/path"
// for another host. Whether a path without a trailing "/" is a directory is
// only known by looking, which Explain does not do.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	f, err := locator(req)
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
	if req.Offset > 0 {
		plan = append(plan, "seek "+strconv.FormatInt(req.Offset, 10))
	}
	return plan, nil
}

// start checks the request and returns its typed URL and a usable Trace.
func (h *Handler) start(ctx context.Context, req *schemes.Request) (*URL, schemes.Trace, error) {
	f, err := locator(req)
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

func locator(req *schemes.Request) (*URL, error) {
	f, ok := req.URL.(*URL)
	if !ok {
		return nil, &schemes.Error{Scheme: "file", Phase: "request", Kind: schemes.KindOther,
			Msg: fmt.Sprintf("file handler given a %T, want *file.URL", req.URL)}
	}
	return f, nil
}

// remote answers a file URL on another host with a redirect to ftp.
func (h *Handler) remote(f *URL, tr schemes.Trace) (*schemes.Response, error) {
	if h.NoFTP {
		return nil, h.noFTPError(f)
	}
	to := f.FTP()
	tr.Info(fmt.Sprintf("host %q is not this machine; retrieving %s instead (RFC 1738 §3.10, libwww)", f.Host, to))
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("")), Size: -1, Redirect: to}, nil
}

func (h *Handler) noFTPError(f *URL) error {
	return &schemes.Error{Scheme: "file", Phase: "redirect", Kind: schemes.KindUnsupported, URL: f.Redacted(), Part: "host",
		Msg: fmt.Sprintf("host %q is not this machine, and --no-file-ftp forbids retrieving %s instead", f.Host, f.FTP())}
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
	return &schemes.Error{Scheme: "file", Phase: phase, Kind: kind, URL: f.Redacted(), Part: partOf(kind), Err: err}
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
	return &schemes.Error{Scheme: "file", Phase: phase, Kind: kind, URL: f.Redacted(), Err: err}
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

func (c *ctxFile) Close() error { return c.f.Close() }
