package main

import (
	"context"
	"fmt"
	"io"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// runLs is `urlget ls [-l] [--json] [flags] URL...`: each URL listed as a
// container through fetch.Client.List, whatever a plain retrieval of it
// would give (an HTML index page is a document to `urlget URL` and a
// directory to `urlget ls URL`). The connection flags are the retrieval's;
// -l is --long, as ls's own (only here: curl users know -l as FTP's
// --list-only on a retrieval).
func runLs(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseFlags(lsArgs(args), stdin, stderr)
	if err == nil {
		err = opts.checkLs()
	}
	if err != nil {
		ls, _ := commandNamed("ls")
		return flagsFailed(err, ls, args, stdout, stderr)
	}
	opts.list = true
	return opts.retrieveAll(ctx, stdin, stdout, stderr)
}

// lsArgs turns ls's own -l into --long, up to a "--" that ends the flags.
func lsArgs(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if a == "-l" {
			out[i] = "--long"
		}
	}
	return out
}

// checkLs refuses the flags that name an output or a plan.
func (o *options) checkLs() error {
	switch {
	case len(o.outputs) > 0:
		return fmt.Errorf("ls: --output is not an ls flag: listings go to stdout (redirect it)")
	case o.remoteName:
		return fmt.Errorf("ls: --remote-name is not an ls flag: listings go to stdout (redirect it)")
	case o.outputDir != "":
		return fmt.Errorf("ls: --output-dir is not an ls flag: listings go to stdout (redirect it)")
	case o.resume:
		return fmt.Errorf("ls: --continue-at is not an ls flag: a listing is read whole")
	case o.explain:
		return fmt.Errorf("ls: --explain is not an ls flag (it shows a retrieval's plan: urlget --explain URL)")
	case o.head:
		return fmt.Errorf("ls: --head is not an ls flag: ls -l shows each entry's size and time (urlget -I URL describes one resource)")
	case o.dumpHeader != "":
		return fmt.Errorf("ls: --dump-header is not an ls flag: a listing has no head to dump (urlget -D FILE URL)")
	case o.rangeFlags.ranges != nil:
		return fmt.Errorf("ls: --range is not an ls flag: a listing is read whole")
	case o.rangeFlags.timeArg != "":
		return fmt.Errorf("ls: --time-cond is not an ls flag: ls -l shows each entry's time")
	}
	return o.schemes.refuseSubmits("an ls", "a listing is asked for with GET (urlget -d ... URL retrieves the answer to a POST)")
}

// listInto lists loc on stdout, as text or into the --json report. With
// --long it asks for every entry's time where that costs another request
// (a Gopher+ menu's `$`), since the long form shows times.
func (o *options) listInto(ctx context.Context, c *fetch.Client, loc schemes.Locator, stdout io.Writer, rep *report, je *jsonEntries) error {
	resp, err := c.Do(ctx, &fetch.Request{Method: fetch.MethodList, URL: loc, WantModTime: o.long})
	if err != nil {
		rep.failedAt(err)
		return err
	}
	defer resp.Close()
	o.fillReport(rep, resp.URL, 0, -1, resp.Type, resp.ModTime)
	if res := resp.Resolved; res != nil {
		rep.Resolution = res.Chain
	}
	if resp.Listing == nil {
		return &schemes.Error{Scheme: rep.Scheme, Phase: "list", Kind: schemes.KindUsage, URL: rep.URL,
			Msg: "not a directory, menu, group or search: fetch it with urlget URL"}
	}
	n := 0
	l := resp.Listing
	counted := schemes.ListingFunc(func() (schemes.Entry, error) {
		e, err := l.Next()
		if err == nil {
			n++
		}
		return e, err
	}, l.Close)
	if err := o.writeListing(counted, stdout, rep, je); err != nil {
		return err
	}
	if n == 0 && c.Caps(resp.URL).Has(schemes.Pages) && !o.silent {
		// An empty page lists as an empty directory does (exit 0), but
		// a page with text and links elsewhere is not what a person
		// takes for empty: say why nothing came.
		o.con.say(rep.URL + ": no entries: the page links to nothing one level below it (urlget URL prints the page)")
	}
	return nil
}

// writeListing streams l to stdout, as text or into the --json report,
// and closes it.
func (o *options) writeListing(l schemes.Listing, stdout io.Writer, rep *report, je *jsonEntries) error {
	rep.Size = nil // the size of a listing is not its text's
	if je != nil {
		for e, err := range schemes.Entries(l) {
			if err != nil {
				l.Close()
				return err
			}
			if err := je.add(e); err != nil {
				l.Close()
				return err
			}
		}
		return l.Close()
	}
	cw := &byteCounter{w: stdout}
	err := listingText{long: o.long}.render(cw, l, nil)
	rep.Bytes = cw.n
	if cerr := l.Close(); err == nil {
		err = cerr
	}
	return err
}
