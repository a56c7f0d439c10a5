package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// report is the --json object printed for each URL.
type report struct {
	URL        string       `json:"url"`
	Scheme     string       `json:"scheme"`
	Output     *string      `json:"output"`
	Bytes      int64        `json:"bytes"`
	Size       *int64       `json:"size"`
	Type       string       `json:"type,omitempty"`
	ModTime    *time.Time   `json:"modtime"`
	DurationMS int64        `json:"duration_ms"`
	Error      *reportError `json:"error"`
}

type reportError struct {
	Kind    string `json:"kind"`
	Code    int    `json:"code,omitempty"`
	Message string `json:"message"`
}

// retrieveAll carries out every URL in order and returns the exit status of
// the last failure (0 if none failed), as curl does.
func (o *options) retrieveAll(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) int {
	client, err := o.client(stdin, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "urlget: %v\n", err)
		return schemes.KindOf(err).ExitCode()
	}
	// Say goodbye to servers whose connections were kept for the next URL
	// (FTP QUIT), rather than just dropping them.
	defer client.CloseIdleConnections()
	o.progressBar = !o.silent && !o.verbose && isTerminal(stderr)
	status := 0
	for i, raw := range o.urls {
		var err error
		if o.explain {
			err = o.explainOne(client, raw, stdout)
		} else {
			err = o.retrieveOne(ctx, client, i, raw, stdout, stderr)
		}
		if err != nil {
			status = exitCode(err)
			if !o.silent || o.showError {
				fmt.Fprintf(stderr, "urlget: %s\n", redactMessage(err))
			}
		}
	}
	return status
}

func exitCode(err error) int { return schemes.KindOf(err).ExitCode() }

// redactMessage formats err for people. Errors from this program carry
// redacted URLs already; anything else is passed through RedactString in
// case a URL with a password slipped into it.
func redactMessage(err error) string {
	var se *schemes.Error
	if errors.As(err, &se) {
		return err.Error()
	}
	return schemes.RedactString(err.Error())
}

func (o *options) client(stdin io.Reader, stderr io.Writer) (*fetch.Client, error) {
	d := &transport.Dialer{
		ConnectTimeout: o.connectTO,
		IdleTimeout:    o.idleTO,
		AllowPorts:     o.allowPorts,
		Proxy:          transport.ProxyFromEnvironment,
	}
	if o.proxy != "" {
		p, err := url.Parse(o.proxy)
		if err != nil || p.Host == "" {
			return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "proxy",
				Msg: fmt.Sprintf("--proxy %s: want scheme://host:port", schemes.RedactString(o.proxy))}
		}
		d.Proxy = func(string, string, int) (*url.URL, error) { return p, nil }
	}
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	c := &fetch.Client{
		Registry:     fetch.NewRegistry(cfg),
		Dialer:       d,
		Retries:      o.retries,
		RetryDelay:   o.retryDelay,
		MaxRedirects: o.maxRedirs,
		Prompt:       terminalPrompt(stdin, stderr),
	}
	if o.maxRedirs == 0 {
		c.MaxRedirects = -1
	}
	c.LocationTrusted = o.locationTrusted
	if o.proto != "" {
		p, err := fetch.ParseProtocols(o.proto, c.AllProtocols(), c.AllProtocols())
		if err != nil {
			return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "proto", Msg: "--proto", Err: err}
		}
		c.Protocols = p
	}
	if o.protoRedir != "" {
		p, err := fetch.ParseProtocols(o.protoRedir, c.DefaultRedirectProtocols(), c.AllProtocols())
		if err != nil {
			return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "proto-redir", Msg: "--proto-redir", Err: err}
		}
		c.RedirectProtocols = p
	}
	if o.verbose {
		t := transport.NewTrace(stderr)
		c.Trace = t
		d.Trace = t
	}
	if !o.silent {
		c.Notify = func(msg string) { fmt.Fprintf(stderr, "urlget: %s\n", msg) }
	}
	if o.caFile != "" || o.insecure {
		cfg, err := transport.TLSConfig(o.caFile, o.insecure, "")
		if err != nil {
			return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "cacert", Msg: "--cacert", Err: err}
		}
		c.TLS = cfg
	}
	if o.user != "" {
		user, pass, _ := strings.Cut(o.user, ":")
		if c.Trace != nil && pass != "" {
			c.Trace.Secret(pass)
		}
		c.Credentials = func(string, string, int) (string, string, bool) { return user, pass, true }
	}
	return c, nil
}

// config turns the parsed flags into the handlers' settings.
func (o *options) config() (fetch.Config, error) {
	cfg := fetch.Config{NoFileFTP: o.noFileFTP, RequireTLS: o.sslReqd}
	for _, s := range o.schemes {
		if err := s.apply(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

func (o *options) explainOne(c *fetch.Client, raw string, stdout io.Writer) error {
	plan, err := c.Explain(raw)
	if err != nil {
		return err
	}
	if len(o.urls) > 1 {
		loc, _ := c.Parse(raw)
		fmt.Fprintf(stdout, "# %s\n", loc.Redacted())
	}
	for _, line := range plan {
		fmt.Fprintln(stdout, line)
	}
	return nil
}

// destination is where the i-th URL goes: "" for stdout, or a file path.
func (o *options) destination(i int, loc schemes.Locator) (string, error) {
	name := ""
	switch {
	case i < len(o.outputs):
		name = o.outputs[i]
		if name == "-" {
			return "", nil
		}
	case o.remoteName:
		n, err := remoteName(loc)
		if err != nil {
			return "", err
		}
		name = n
	default:
		return "", nil
	}
	if o.outputDir != "" && !filepath.IsAbs(name) {
		name = filepath.Join(o.outputDir, name)
	}
	return name, nil
}

func (o *options) retrieveOne(ctx context.Context, c *fetch.Client, i int, raw string, stdout, stderr io.Writer) error {
	if o.maxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.maxTime)
		defer cancel()
	}
	start := time.Now()
	rep := &report{URL: schemes.RedactString(raw)}
	var je *jsonEntries
	if o.json {
		je = &jsonEntries{w: stdout}
	}
	listing, err := o.retrieveInto(ctx, c, i, raw, stdout, stderr, rep, je)
	if err != nil {
		rep.Error = &reportError{Kind: schemes.KindOf(err).String(), Message: redactMessage(err)}
		var se *schemes.Error
		if errors.As(err, &se) {
			rep.Error.Code = se.Code
		}
	}
	if o.json {
		rep.DurationMS = time.Since(start).Milliseconds()
		if jerr := je.finish(rep, listing); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

// retrieveInto carries out one URL, to stdout or a file, and says whether
// it turned out to be a listing (whose entries je, when set, has streamed
// into the --json report).
func (o *options) retrieveInto(ctx context.Context, c *fetch.Client, i int, raw string, stdout, stderr io.Writer, rep *report, je *jsonEntries) (listing bool, err error) {
	loc, err := c.Parse(raw)
	if err != nil {
		return false, err
	}
	rep.URL, rep.Scheme = loc.Redacted(), loc.Generic().Scheme
	dest, err := o.destination(i, loc)
	if err != nil {
		return false, err
	}
	var each func(schemes.Entry) error
	if je != nil {
		each = je.add
	}
	text := listingText{long: o.long}
	bar := o.newBar(stderr, loc)
	defer bar.done()
	if dest != "" {
		rep.Output = &dest
		res, err := c.DownloadLocator(ctx, loc, dest, fetch.DownloadOptions{
			Resume: o.resume, RemoteTime: o.remoteTime, Progress: bar.update,
			Render: func(w io.Writer, l schemes.Listing) error { return text.render(w, l, each) },
		})
		if err != nil {
			return false, err
		}
		o.fillReport(rep, res.URL, res.Bytes, res.Size, res.Type, res.ModTime)
		return res.Listing, nil
	}
	if o.resume {
		return false, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: "-C - needs an output file (-o or -O) to continue"}
	}
	resp, err := c.GetLocator(ctx, loc, fetch.Resume{})
	if err != nil {
		return false, err
	}
	defer resp.Close()
	if resp.Listing != nil {
		o.fillReport(rep, resp.URL, 0, -1, resp.Type, resp.ModTime)
		if je != nil {
			for e, err := range schemes.Entries(resp.Listing) {
				if err != nil {
					return true, err
				}
				if err := je.add(e); err != nil {
					return true, err
				}
			}
			return true, resp.Listing.Close()
		}
		cw := &byteCounter{w: stdout}
		err := text.render(cw, resp.Listing, nil)
		rep.Bytes = cw.n
		if cerr := resp.Listing.Close(); err == nil {
			err = cerr
		}
		return true, err
	}
	var w io.Writer = stdout
	if f, ok := stdout.(*os.File); ok && !transport.SpliceSafe(f) {
		// A terminal may refuse a splice after the bytes have left the
		// socket: hide the file's ReadFrom so that bodies copy instead.
		w = struct{ io.Writer }{f}
	}
	if o.json {
		w = io.Discard // stdout carries the JSON report
	}
	n, err := io.Copy(w, progressReader(resp.Body, resp.Size, bar.update))
	o.fillReport(rep, resp.URL, n, resp.Size, resp.Type, resp.ModTime)
	if err != nil {
		return false, err
	}
	if resp.Size >= 0 && n != resp.Size {
		return false, &schemes.Error{Scheme: rep.Scheme, Phase: "verify", Kind: schemes.KindProtocol, URL: rep.URL,
			Msg: fmt.Sprintf("transfer truncated: got %d of %d bytes", n, resp.Size)}
	}
	return false, nil
}

// byteCounter counts what passes through it.
type byteCounter struct {
	w io.Writer
	n int64
}

func (c *byteCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (o *options) fillReport(rep *report, loc schemes.Locator, n, size int64, typ string, mod time.Time) {
	if loc != nil {
		rep.URL = loc.Redacted()
	}
	rep.Bytes, rep.Type = n, typ
	if size >= 0 {
		rep.Size = &size
	}
	if !mod.IsZero() {
		rep.ModTime = &mod
	}
}

// remoteName derives a local file name from the URL's last path segment,
// and refuses any name that could leave the current directory.
// A Locator that knows better (a gopher selector, say) names the file
// itself by implementing FileName() string.
func remoteName(loc schemes.Locator) (string, error) {
	g := loc.Generic()
	if n, ok := loc.(interface{ FileName() string }); ok {
		return checkedName(loc, n.FileName(), nil)
	}
	p := g.Path
	if !g.Authority {
		p = g.Opaque
	}
	if i := strings.IndexByte(p, ';'); i >= 0 && g.Scheme == "ftp" {
		p = p[:i] // ";type=" is not part of the name
	}
	if i := strings.Index(p, "%09"); i >= 0 {
		p = p[:i] // a gopher search or Gopher+ string
	}
	name, err := schemes.Unescape(p[strings.LastIndexByte(p, '/')+1:])
	return checkedName(loc, name, err)
}

func checkedName(loc schemes.Locator, name string, err error) (string, error) {
	if err == nil {
		err = checkLocalName(name)
	}
	if err != nil {
		g := loc.Generic()
		return "", &schemes.Error{Scheme: g.Scheme, Phase: "output", Kind: schemes.KindSafety, URL: loc.Redacted(),
			Part: "path", Msg: fmt.Sprintf("-O: %v; name the file with -o", err)}
	}
	return name, nil
}

// checkLocalName accepts only a plain file name: no directory part, not
// "." or "..", no NUL, so a server or URL cannot make urlget write outside
// the current directory.
func checkLocalName(name string) error {
	switch {
	case name == "":
		return errors.New("the URL has no file name")
	case name == "." || name == "..":
		return fmt.Errorf("%q is not a file name", name)
	case strings.ContainsAny(name, "/\x00") || (os.PathSeparator != '/' && strings.ContainsRune(name, os.PathSeparator)):
		return fmt.Errorf("%q would leave the current directory", name)
	}
	return nil
}
