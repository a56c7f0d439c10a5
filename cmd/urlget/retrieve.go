package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// report is the --json object printed for each URL (after the body when
// the body goes to stdout; after its streamed "entries" for a listing).
type report struct {
	URL     string     `json:"url"`   // after redirects, redacted, never shortened
	Input   string     `json:"input"` // as given, redacted
	Scheme  string     `json:"scheme"`
	Output  *string    `json:"output"`
	Bytes   int64      `json:"bytes"`
	Size    *int64     `json:"size"`
	Type    string     `json:"type,omitempty"`
	ModTime *time.Time `json:"modtime"`
	// Mode is the representation the bytes came in (FTP TYPE "I" or "A");
	// ModeGuessed says urlget guessed it from the name (RFC 1738 §3.2.3:
	// no ";type=" in the URL and no --ascii/--binary).
	Mode        string       `json:"mode,omitempty"`
	ModeGuessed bool         `json:"mode_guessed,omitempty"`
	DurationMS  int64        `json:"duration_ms"`
	Error       *reportError `json:"error"`
	// Resolution is how a resolving scheme (prospero) reached the
	// resource: the URL asked, the steps, the URL fetched.
	Resolution []string `json:"resolution,omitempty"`
	// Segments is how many connections carried the data of a download
	// made in segments (--segments), absent for one connection.
	Segments int `json:"segments,omitempty"`
	// Status is the server's last reply code (HTTP's status, FTP's 226),
	// absent when none came.
	Status int `json:"status,omitempty"`
	// ErrorPage is the error status whose page was written as the
	// resource (no -f): the transfer counted as done, Error is null.
	ErrorPage *reportError `json:"error_page,omitempty"`
	// redirects are the redirects followed, for -w (not in --json), and
	// failure what the page written was (ErrorPage), for the note.
	redirects int
	failure   error
}

type reportError struct {
	Kind    string `json:"kind"`
	Code    int    `json:"code,omitempty"`
	Message string `json:"message"`
}

// retrieveAll carries out every URL in order and returns the exit status of
// the last failure (0 if none failed), as curl does.
func (o *options) retrieveAll(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) int {
	con := newConsole(stderr, !o.silent && !o.verbose && isTerminal(stderr))
	con.hashes = o.progressBar
	o.con = con
	// A body shown on the terminal gets no progress line under it (as
	// with curl): the two would garble each other.
	o.stdoutTerminal = isTerminal(stdout)
	client, err := o.client(stdin, con)
	if err == nil {
		o.guessSchemes(client)
		err = o.checkURLs(client)
	}
	if err == nil && !o.explain {
		o.dump, err = o.openHeadDump()
		defer o.dump.close()
	}
	if err != nil {
		con.say(redactedText(err))
		return exitCode(err)
	}
	// Say goodbye to servers whose connections were kept for the next URL
	// (FTP QUIT), rather than just dropping them.
	defer client.CloseIdleConnections()
	if o.parallel && !o.explain {
		return o.retrieveParallel(ctx, client, stdin, stdout)
	}
	procs := o.processors()
	defer procs.restore()
	status := 0
	ahead := newLookahead(client, o.urls)
	for i, raw := range o.urls {
		var err error
		loc := ahead.parse(i) // parsed once, for the look-ahead and the retrieval
		procs.next(client, loc)
		if o.explain {
			err = o.explainOne(client, raw, stdout)
		} else {
			err = o.retrieveOne(ctx, client, i, raw, loc, ahead.next(i), stdout)
		}
		if in := interruptedBy(ctx); in != nil {
			// Ctrl-C: this URL's failure is the interrupt's doing, and
			// the URLs after it are not started.
			if err != nil && (!o.silent || o.showError) {
				con.say(interruptedMessage(err))
			}
			return in.exitCode()
		}
		if err != nil {
			status = o.exitFor(err)
			if !o.silent || o.showError {
				con.say(o.where(i) + redactedText(err))
			}
			if o.failEarly {
				return status
			}
		}
	}
	return status
}

func exitCode(err error) int { return schemes.KindOf(err).ExitCode() }

// checkURLs lets each scheme's declaration refuse URLs its options
// cannot apply to, before anything is retrieved. URLs that do not parse
// are skipped here and reported in their turn.
func (o *options) checkURLs(c *fetch.Client) error {
	var locs []schemes.Locator
	for _, raw := range o.urls {
		if loc, err := c.Parse(raw); err == nil {
			locs = append(locs, loc)
		}
	}
	return o.schemes.check(o.schemeOptions(), locs)
}

func (o *options) client(stdin io.Reader, con *console) (*fetch.Client, error) {
	d := &transport.Dialer{
		ConnectTimeout: o.connectTO,
		IdleTimeout:    o.idleTO,
		AllowPorts:     o.allowPorts,
		Proxy:          transport.ProxyFromEnvironment,
		LocalIP:        o.localIP,
	}
	if o.proxy != "" {
		p, err := url.Parse(o.proxy)
		if err != nil || p.Host == "" {
			return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "proxy",
				Msg: fmt.Sprintf("--proxy %s: want scheme://host:port", schemes.RedactString(o.proxy))}
		}
		d.Proxy = func(string, string, int) (*url.URL, error) { return p, nil }
	}
	reg, err := fetch.NewRegistry(o.config())
	if err != nil {
		return nil, err
	}
	c := &fetch.Client{
		Registry:     reg,
		Dialer:       d,
		Retries:      o.retries,
		RetryDelay:   o.retryDelay,
		MaxTime:      o.maxTime,
		SettingName:  o.schemes.flagOf,
		RetryMaxTime: o.retryMaxTime,
		MaxRedirects: o.maxRedirs,
		Prompt:       terminalPrompt(stdin, con),
		LimitRate:    o.limitRate,
		MaxFileSize:  o.maxFileSize,
	}
	if o.maxRedirs == 0 {
		c.MaxRedirects = -1
	}
	c.LocationTrusted = o.locationTrusted
	c.RequireTLS = o.sslReqd // checked against each scheme's TLS capability
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
		c.Trace = transport.NewTrace(con.w) // the Dialer's notes go to each connection's scope of it
	}
	if !o.silent {
		c.Notify = con.say
	}
	if o.caFile != "" || o.insecure {
		cfg, err := transport.TLSConfig(o.caFile, o.insecure, "")
		if err != nil {
			return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "cacert", Msg: "--cacert", Err: err}
		}
		c.TLS = cfg // every connection's, an https proxy's too
	}
	if err := o.credentials(c); err != nil {
		return nil, err
	}
	return c, nil
}

// config is what the parsed flags make of the schemes' handlers: the
// options given, with errors naming them as flags.
func (o *options) config() fetch.Config {
	return fetch.Config{Options: o.schemeOptions(), OptionName: o.schemes.flagOf}
}

// schemeOptions are the declared options given as flags and the common
// ones the command's own flags set: --max, -I, --no-pipeline, and a
// person at the terminal (a telnet session may be interactive).
func (o *options) schemeOptions() schemes.Options {
	return o.schemes.options(schemes.Options{
		schemes.OptionMax: o.max, schemes.OptionHead: o.head,
		schemes.OptionNoPipeline: o.noPipeline, schemes.OptionTerminal: true,
	})
}

func (o *options) explainOne(c *fetch.Client, raw string, stdout io.Writer) error {
	loc, err := c.Parse(raw)
	if err != nil {
		return err
	}
	plan, err := c.ExplainRequest(o.request(loc, nil))
	if err != nil {
		return err
	}
	if len(o.urls) > 1 {
		fmt.Fprintf(stdout, "# %s\n", escapeControls(loc.Redacted()))
	}
	// A plan holds the URL's decoded parts (a selector, a path), which may
	// hold any byte: each line is shown with its control characters
	// escaped, as the protocol trace of -v shows them.
	for _, line := range plan {
		fmt.Fprintln(stdout, escapeControls(line))
	}
	return nil
}

// destination is where the i-th URL goes: "" for stdout, or a file path.
// --output-dir is created when missing (as curl's --create-dirs does for
// it); a directory named in -o must exist.
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
	checked := "" // a directory MkdirAll has just found
	if o.outputDir != "" && !filepath.IsAbs(name) {
		if err := os.MkdirAll(o.outputDir, 0o777); err != nil {
			return "", outputError(loc, fmt.Sprintf("--output-dir %s: cannot create it", o.outputDir), err)
		}
		checked = filepath.Clean(o.outputDir)
		name = filepath.Join(o.outputDir, name)
	}
	if err := o.makeDirs(loc, name); err != nil {
		return "", err
	}
	dir := filepath.Dir(name)
	if dir == checked {
		// MkdirAll's Stat said it is a directory: a second Stat a file
		// would say it again (issue 36: one call less a file of -O
		// --output-dir DIR).
		return name, nil
	}
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return "", outputError(loc, fmt.Sprintf("-o %s: there is no directory %s (create it, or name it with --output-dir, which is created)", name, dir), nil)
	case err != nil:
		return "", outputError(loc, fmt.Sprintf("-o %s: cannot reach the directory %s", name, dir), err)
	case !st.IsDir():
		return "", outputError(loc, fmt.Sprintf("-o %s: %s is not a directory", name, dir), nil)
	}
	return name, nil
}

// outputError is a local output path that cannot be used: KindLocal,
// exit 23 as with curl, never a code a remote failure has.
func outputError(loc schemes.Locator, msg string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // msg names the path
	}
	return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "output", Kind: schemes.KindLocal, URL: loc.Redacted(), Msg: msg, Err: err}
}

// retrieveOne carries out URL i, raw, parsed as loc (nil: parsed here,
// where a failure to parse is the URL's error), and reports it.
func (o *options) retrieveOne(ctx context.Context, c *fetch.Client, i int, raw string, loc schemes.Locator, next []schemes.Locator, stdout io.Writer) error {
	start := time.Now()
	rep := &report{URL: schemes.RedactString(raw), Input: schemes.RedactString(raw)}
	var je *jsonEntries
	if o.json {
		je = &jsonEntries{w: stdout}
	}
	listing, err := o.retrieveInto(ctx, c, i, raw, loc, next, stdout, rep, je)
	if err != nil {
		rep.Error = newReportError(err)
		if interruptedBy(ctx) != nil {
			rep.Error.Message = interruptedMessage(err)
		}
		if rep.Status == 0 {
			rep.Status = rep.Error.Code // the reply urlget failed on (404), as curl's -w shows it
		}
	} else if rep.failure != nil {
		rep.ErrorPage = pageReport(rep.failure)
		if !o.silent {
			o.con.say(o.where(i) + o.pageNote(rep.failure))
		}
	}
	if o.json {
		rep.DurationMS = time.Since(start).Milliseconds()
		if jerr := je.finish(rep, listing); jerr != nil && err == nil {
			err = jerr
		}
	}
	if o.writeOut != "" { // after a failure too, as curl
		o.writeOutFor(i, rep, err, time.Since(start), stdout)
	}
	return err
}

// newReportError is err as --json shows it.
func newReportError(err error) *reportError {
	re := &reportError{Kind: schemes.KindOf(err).String(), Message: redactedText(err)}
	var se *schemes.Error
	if errors.As(err, &se) {
		re.Code = se.Code
	}
	return re
}

// retrieveInto carries out one URL, to stdout or a file, and says whether
// it turned out to be a listing (whose entries je, when set, has streamed
// into the --json report). With --json a body for stdout goes there
// before its report, which then starts on a line of its own.
func (o *options) retrieveInto(ctx context.Context, c *fetch.Client, i int, raw string, loc schemes.Locator, next []schemes.Locator, stdout io.Writer, rep *report, je *jsonEntries) (listing bool, err error) {
	if loc == nil {
		if loc, err = c.Parse(raw); err != nil {
			return false, err
		}
	}
	rep.URL, rep.Scheme = loc.Redacted(), loc.Generic().Scheme
	if o.list { // urlget ls
		return true, o.listInto(ctx, c, loc, stdout, rep, je)
	}
	dest, err := o.destination(i, loc)
	if err != nil {
		return false, err
	}
	if o.head {
		if handled, err := o.headInto(ctx, c, loc, dest, stdout, rep); handled {
			return false, err
		}
	}
	var each func(schemes.Entry) error
	if je != nil {
		each = je.add
	}
	text := listingText{long: o.long}
	var tr *transfer
	if o.set == nil && (dest != "" || !o.stdoutTerminal) {
		tr = o.con.start(loc.Redacted())
	}
	defer tr.end()
	progress := o.set.progress(tr.progress()) // -Z: the set's one line
	// Every retrieval asks for error pages: the handler's -f and
	// --fail-with-body say what becomes of them (errorpages.go).
	req := o.request(loc, next)
	req.ErrorPages = true
	var dumpErr error
	o.dumpHeads(c, req, stdout, &dumpErr)
	if dest != "" {
		rep.Output = &dest
		res, err := c.DownloadRequest(ctx, req, dest, fetch.DownloadOptions{
			Resume: o.resume, RemoteTime: o.remoteTime, Sync: o.fsync, Progress: progress, Segments: o.segments,
			ServerName: o.serverName(i),
			Render:     func(w io.Writer, l schemes.Listing) error { return text.render(w, l, each) },
		})
		if res != nil && res.Path != "" {
			dest = res.Path // -J: the server's name
		}
		if res != nil { // what is known of a failed download too
			o.fillReport(rep, res.URL, res.Bytes, res.Size, res.Type, res.ModTime)
			rep.Status, rep.redirects, rep.failure = res.Status, res.Redirects, res.Failure
			rep.Mode, rep.ModeGuessed = res.Mode, res.ModeGuessed
			rep.Resolution = res.Resolution
			rep.Segments = res.Segments
		}
		if err != nil {
			if res == nil {
				rep.failedAt(err)
			}
			return false, err
		}
		o.unmet(loc, res.NotModified, res.Changed)
		return res.Listing, dumpErr
	}
	if o.resume {
		return false, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: "-C - needs an output file (-o or -O) to continue"}
	}
	w := stdout // a terminal is never handed the socket (Client.Stream)
	if o.stdoutTerminal && !o.forcedStdout(i) {
		w = &binaryGuard{w: w} // as curl: no binary to a terminal unless -o -
	}
	var tail *lastByte
	if o.json {
		tail = &lastByte{w: w}
		w = tail
	}
	// Stream is the transfer with its retries: a body cut short is
	// continued after the bytes stdout already took.
	resp, n, err := c.Stream(ctx, req, w, progress)
	if err == nil {
		err = dumpErr
	}
	if resp == nil {
		rep.failedAt(err)
		return false, err
	}
	defer resp.Close()
	o.unmet(loc, resp.NotModified, resp.Changed)
	o.fillReport(rep, resp.URL, n, resp.Size, resp.Type, resp.ModTime)
	rep.Status, rep.redirects, rep.failure = resp.Status, resp.Redirects, resp.Failure
	rep.Mode, rep.ModeGuessed = resp.Mode, resp.ModeGuessed
	if res := resp.Resolved; res != nil {
		rep.Resolution = res.Chain
		if res.URL != "" && resp.Body == nil && resp.Listing == nil {
			// A URL of an interactive or sending scheme: shown, not started.
			_, err := fmt.Fprintln(stdout, schemes.Printable(res.URL, 0))
			return false, err
		}
	}
	if resp.Listing != nil {
		return true, o.writeListing(resp.Listing, stdout, rep, je)
	}
	if tail != nil && tail.n > 0 && tail.last != '\n' {
		// The report is the last line: it must not continue the body's.
		if _, werr := io.WriteString(stdout, "\n"); err == nil {
			err = werr
		}
	}
	return false, err
}

// lastByte remembers the last byte written through it, so that the
// --json report after a body can start on a line of its own.
type lastByte struct {
	w    io.Writer
	n    int64
	last byte
}

func (l *lastByte) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if n > 0 {
		l.n += int64(n)
		l.last = p[n-1]
	}
	return n, err
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

// failedAt makes the report's url that of the request that failed, which
// the fetch error names (after redirects, the URL they led to), when no
// response or result said where the data came from.
func (rep *report) failedAt(err error) {
	var se *schemes.Error
	if errors.As(err, &se) && se.URL != "" {
		rep.URL = se.URL
	}
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

// remoteName is the local file name -O gives loc: the name its scheme
// suggests (Locator.LocalName), checked again here, since any Locator (a
// library user's too) may break that contract, and no name may make
// urlget write outside the current directory.
func remoteName(loc schemes.Locator) (string, error) {
	name := loc.LocalName()
	var kind schemes.Kind
	var err error
	if _, ok := schemes.SafeName(name); name == "" {
		// Nothing to name the file after is the user's to fix, not a
		// name that was refused.
		kind, err = schemes.KindUsage, errors.New("the URL has no file name")
	} else if !ok {
		// LocalName's contract says this never happens: a library
		// user's Locator may break it.
		kind, err = schemes.KindSafety, fmt.Errorf("%q is not a plain file name; it could leave the current directory", name)
	}
	if err != nil {
		g := loc.Generic()
		return "", &schemes.Error{Scheme: g.Scheme, Phase: "output", Kind: kind, URL: loc.Redacted(),
			Part: "path", Msg: fmt.Sprintf("-O: %v; name the file with -o", err)}
	}
	return name, nil
}
