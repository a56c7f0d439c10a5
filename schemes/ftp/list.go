package ftp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// maxLine bounds one line of a listing: the rest of a longer line is
// dropped, so a hostile server cannot make the client buffer without end.
const maxLine = 64 << 10

// abortWait bounds the exchange after a transfer is closed before its
// end (abortTransfer): the data connection is gone, and the replies say
// whether the control connection is still in step.
const abortWait = 5 * time.Second

// nlst lists names with NLST (";type=d"), with loc's name as its argument
// when it has one. NLST tells names only: entries are of unknown kind,
// and each name, as the server gave it, is a file name in the current
// directory.
func (h *Handler) nlst(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request) (*schemes.Response, error) {
	cmd := "NLST"
	if loc.Name != "" {
		cmd += " " + loc.Name
	}
	l := newEntryLocator(loc, loc.Cwd)
	return h.listing(ctx, c, loc, req, cmd, loc.Name, func(line string) (schemes.Entry, bool) {
		return l.locate(parseNLST(line))
	})
}

// listDir lists the current directory, dir on the server (the listed
// URL's Cwd, and its name for List), with MLSD when FEAT offers it and
// LIST otherwise — "LIST -a", which every common server takes, so that
// names starting with "." are listed too (vsftpd hides them from a plain
// LIST; a mirror would lose them), and plain LIST on a connection whose
// server refused it with a 5xx.
func (h *Handler) listDir(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request, dir []string) (*schemes.Response, error) {
	feat, err := c.features(loc)
	if err != nil {
		return nil, err
	}
	cmd, parse := listAll, listParser(time.Now())
	if c.noListA {
		cmd = "LIST"
	}
	_, mlsd := feat["MLSD"]
	// RFC 3659 §7.8: a server offering MLST offers MLSD too (proftpd
	// lists only MLST).
	_, mlst := feat["MLST"]
	if mlsd || mlst {
		cmd, parse = "MLSD", parseMLSD
	}
	name := ""
	if len(dir) > 0 {
		name = dir[len(dir)-1]
	}
	l := newEntryLocator(loc, dir)
	each := func(line string) (schemes.Entry, bool) { return l.locate(parse(line)) }
	resp, err := h.listing(ctx, c, loc, req, cmd, name, each)
	var se *schemes.Error
	if cmd == listAll && errors.As(err, &se) && se.Code/100 == 5 && !c.broken {
		// A server that reads "-a" as a name, or knows no options.
		c.noListA = true
		c.tr.Info(`server refused "LIST -a": listing with LIST (names starting with "." may be left out)`)
		return h.listing(ctx, c, loc, req, "LIST", name, each)
	}
	return resp, err
}

// listAll is the LIST that shows every name, those starting with "." too.
const listAll = "LIST -a"

// parsed is one listing line read by a parser: the entry (Name and Title
// set), the name the server gave (what the entry's Locator names), and
// whether the line is an entry at all ("total", ".", "..", MLSD's cdir and
// pdir are not).
type parsed struct {
	e    schemes.Entry
	name string
	ok   bool
}

// locate gives a parsed entry of the directory dir its Locator (see
// entryLocator), for one entry.
func locate(loc *URL, dir []string, p parsed) (schemes.Entry, bool) {
	return newEntryLocator(loc, dir).locate(p)
}

// entryLocator gives the entries of one listing of the directory dir their
// Locators, built from loc's typed parts (so they keep loc's login): a
// directory's lists it, any other names a file, with loc's typecode when
// that is a or i. Raw lines name nothing and get none. The directory is
// copied and escaped once a listing, not once an entry: a listing of
// 2,000,000 names escaped its directory 2,000,000 times.
type entryLocator struct {
	loc *URL
	// dir is shared by the files' URLs, its capacity clipped so that an
	// append to one copies it.
	dir []string
	// prefix is the url-path of dir: "/" and each segment escaped,
	// followed by "/".
	prefix string
	typ    byte // the files' typecode
}

func newEntryLocator(loc *URL, dir []string) *entryLocator {
	var b strings.Builder
	b.WriteByte('/')
	for _, c := range dir {
		b.WriteString(schemes.Escape(c, segmentReserved))
		b.WriteByte('/')
	}
	d := slices.Clone(dir)
	l := &entryLocator{loc: loc, dir: d[:len(d):len(d)], prefix: b.String(), typ: loc.Type}
	if l.typ == 'd' {
		l.typ = 0
	}
	return l
}

func (l *entryLocator) locate(p parsed) (schemes.Entry, bool) {
	switch {
	case !p.ok:
		return p.e, false
	case p.e.Kind == schemes.EntryRaw:
	case p.e.Kind == schemes.EntryDir:
		path := l.prefix + schemes.Escape(p.name, segmentReserved) + "/"
		p.e.Locator = l.loc.atPath(append(slices.Clone(l.dir), p.name), "", 0, path)
	default:
		path := l.prefix + schemes.Escape(p.name, segmentReserved)
		if l.typ != 0 {
			path += ";type=" + string(l.typ)
		}
		p.e.Locator = l.loc.atPath(l.dir, p.name, l.typ, path)
	}
	return p.e, true
}

// listing sends cmd (LIST, MLSD, NLST) over a new data connection and
// returns a Response whose Listing parses the lines as they arrive. The
// control connection goes with the Listing: back to the pool after the
// data's end and the 226, or closed when the listing is abandoned or
// fails.
func (h *Handler) listing(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request, cmd, name string,
	parse func(string) (schemes.Entry, bool)) (*schemes.Response, error) {
	if err := c.setType(loc, 'a'); err != nil {
		return nil, err
	}
	dc, err := c.openData(ctx, loc, req.Dialer)
	if err != nil {
		return nil, err
	}
	dc, rp, err := c.transfer(ctx, loc, req.Dialer, dc, "list", cmd, false)
	if err != nil {
		return nil, err
	}
	l := &listing{h: h, c: c, dc: dc, br: bufio.NewReaderSize(dc, maxLine), ctx: ctx, loc: loc, cmd: cmd, parse: parse}
	resp := &schemes.Response{Listing: schemes.ListingFunc(l.next, l.close), Kind: schemes.EntryDir, Size: -1,
		Status: rp.Code}
	resp.Name, _ = schemes.SafeName(name)
	return resp, nil
}

// listing is the state of one listing transfer.
type listing struct {
	h     *Handler
	c     *ctrl
	dc    net.Conn
	br    *bufio.Reader // maxLine bytes over dc
	ctx   context.Context
	loc   *URL
	cmd   string
	parse func(string) (schemes.Entry, bool)
	done  bool // the connections are released
}

// next returns the entry of the next line that holds one. At the end of
// the data it reads the transfer's reply and releases the connections.
func (l *listing) next() (schemes.Entry, error) {
	for {
		// As for a body: lines already buffered are not delivered after
		// the caller canceled.
		if err := l.ctx.Err(); err != nil {
			l.abort()
			return schemes.Entry{}, ioError(l.loc, "list", err)
		}
		line, ended, err := readListLine(l.br)
		if err == io.EOF {
			return schemes.Entry{}, l.finish()
		}
		if err != nil {
			l.abort()
			return schemes.Entry{}, transferError(l.loc, "list", err)
		}
		if !ended {
			// Every listing line ends in CRLF (RFC 959 §4.1.3, RFC 3659
			// §7.2): data that stops inside one was cut on its way, even
			// when the server, whose bytes all left it, says 226. The
			// partial line is no entry, and the listing is not whole.
			if ferr := l.finish(); ferr != io.EOF {
				return schemes.Entry{}, ferr
			}
			return schemes.Entry{}, &schemes.Error{Scheme: l.loc.Generic().Scheme, Phase: "list", Kind: schemes.KindConnect,
				Retryable: true, Msg: fmt.Sprintf("%s data cut short: it ends inside a line (%q)", l.cmd, schemes.Printable(line, 80))}
		}
		if line == "" {
			continue
		}
		if e, ok := l.parse(line); ok {
			return e, nil
		}
	}
}

// finish ends a listing whose data arrived: the 226 must follow. It
// returns io.EOF when it did.
func (l *listing) finish() error {
	l.done = true
	l.dc.Close()
	if _, err := l.c.endTransfer(l.loc, "list", l.cmd); err != nil {
		l.c.broken = true
		l.c.close()
		return err
	}
	l.c.release()
	return io.EOF
}

// abort drops both connections after a failure.
func (l *listing) abort() {
	if l.done {
		return
	}
	l.done = true
	l.dc.Close()
	l.c.broken = true
	l.c.close()
}

// close ends the listing. Before its end, it closes the data connection
// and ends the transfer with abortTransfer, which keeps the control
// connection for the pool when the server confirms.
func (l *listing) close() error {
	if l.done {
		return nil
	}
	l.done = true
	l.dc.Close()
	l.c.abortTransfer()
	return nil
}

// readLine reads one line without its line end. A line longer than the
// reader's buffer is cut there and the rest of it dropped. A last line
// without a line end is a line; io.EOF comes after it.
func readLine(br *bufio.Reader) (string, error) {
	line, _, err := readListLine(br)
	return line, err
}

// readListLine is readLine that also says whether the line ended with a
// line end (false for a last line without one).
func readListLine(br *bufio.Reader) (line string, ended bool, err error) {
	b, err := br.ReadSlice('\n')
	line = string(b)
	for err == bufio.ErrBufferFull {
		b, err = br.ReadSlice('\n')
	}
	ended = len(b) > 0 && b[len(b)-1] == '\n'
	if err == io.EOF && line != "" {
		err = nil
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), ended, err
}

// features asks FEAT once per connection (RFC 2389) and returns the
// features the server lists, by upper-case name. A server that does not
// know FEAT has none; one that is busy (421) fails.
func (c *ctrl) features(loc *URL) (map[string]string, error) {
	if c.feat != nil {
		return c.feat, nil
	}
	rp, err := c.cmd("FEAT")
	if err != nil {
		return nil, ioError(loc, "feat", err)
	}
	if rp.Code == 421 {
		return nil, c.replyError(loc, "feat", "FEAT", rp)
	}
	c.feat = map[string]string{}
	if rp.Code == 211 {
		for _, l := range rp.Lines[1:] {
			if !strings.HasPrefix(l, " ") {
				continue
			}
			name, params, _ := strings.Cut(strings.TrimSpace(l), " ")
			c.feat[strings.ToUpper(name)] = params
		}
	}
	return c.feat, nil
}
