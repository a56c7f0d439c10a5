package main

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/urlget/urlget/schemes"
)

// command is one form of urlget — a retrieval (name ""), or a subcommand
// — as its --help, the shell completions and the man page show it. All
// three are generated from the flag set the command parses (flagSet) and
// the schemes' declarations, so that they name exactly the flags it
// takes, with the help each flag was defined with.
type command struct {
	name string
	// args follow "urlget NAME" in its usage line.
	args string
	// joins puts the command on the usage line of the one before it
	// (parse URL | canon URL | ...).
	joins bool
	// about says what it does.
	about string
	// shared titles the section of the retrieval's flags it takes too.
	shared string
	// parses says it reads flags; sub makes the own flags it parses
	// with the retrieval's (mirror, serve), nil for none.
	parses bool
	sub    func() subcommandFlags
	// reads are flags a scheme declares that it reads as its own: a
	// mirror's --dry-run (mailto's too).
	reads []string
	// skips are the retrieval's flags it refuses, or accepts (a
	// retrieval's command line may be reused) but never reads: its help
	// and completions leave them out.
	skips []string
	// aliases are short spellings it adds to flags of the set, by flag
	// name: ls's -l for --long (lsArgs).
	aliases map[string]string
	// takes says whether a scheme option applies, given the capabilities
	// of the declaration's schemes; nil: every one does.
	takes func(caps schemes.Caps, o schemes.Option) bool
	// operands say how its words other than flags complete.
	operands operands
}

// operands are what a command's words other than flags are: URLs, words
// to choose from (the shells of `urlget completion`), local files or
// directories (a mirror's: a URL, then its directory).
type operands struct {
	urls        bool
	words       func() []string
	files, dirs bool
}

// lsRefuses are the retrieval's flags `urlget ls` refuses (checkLs): a
// listing goes to stdout, read whole, and is no plan.
var lsRefuses = []string{"output", "remote-name", "output-dir", "continue-at", "explain", "head"}

// fileOnly are the retrieval's flags about a file it writes or a transfer
// it draws, which a listing (ls) or a gateway's page (serve) never is,
// and which a mirror does its own way (it always gives files the
// server's time, and draws its own board).
var fileOnly = []string{"remote-header-name", "create-dirs", "remote-time", "fsync", "progress-bar"}

// listsOnly takes the options of schemes whose containers can be listed
// (ls and mirror list them), not telnet's session nor mailto's mail.
func listsOnly(caps schemes.Caps, _ schemes.Option) bool { return caps.Has(schemes.Lists) }

// listingOptions are those that apply to a listing (ls): of schemes that
// list, not about a resource's bytes, and not submitting (a listing is
// asked for with GET).
func listingOptions(caps schemes.Caps, o schemes.Option) bool {
	return listsOnly(caps, o) && !o.Body && !o.Submits
}

// commands are urlget's forms, in the order of its usage lines.
func commands() []*command {
	return []*command{
		{args: "[flags] URL...", parses: true, operands: operands{urls: true},
			about: "Retrieve each URL by its scheme's access algorithm: to stdout, or to -o FILE / -O."},
		{name: "ls", args: "[-l] [--json] [flags] URL...", parses: true,
			about:  "List each URL as a container: a directory, menu, news group, search, or the links of an index page.",
			shared: "Flags of a retrieval that apply to a listing",
			// A listing is read whole on one connection, never sent an
			// error page as a document, and never pipelined (no
			// look-ahead: listInto).
			skips:   slices.Concat(lsRefuses, fileOnly, []string{"segments", "fail-with-body", "no-pipeline"}),
			aliases: map[string]string{"long": "l"}, takes: listingOptions,
			operands: operands{urls: true}},
		{name: "mirror", args: "[flags] URL DIR", parses: true, sub: func() subcommandFlags { return &mirrorFlags{} },
			about:  "Copy the tree under URL into the local directory DIR, again and again: only what changed is fetched.",
			shared: "Flags of a retrieval that apply to a mirror's listings and transfers",
			reads:  []string{"dry-run"},
			// -I would store an article's headers as the article.
			skips:    slices.Concat(retrievalOnly, fileOnly, []string{"head"}),
			takes:    func(caps schemes.Caps, o schemes.Option) bool { return listsOnly(caps, o) && !o.OnlyNamed },
			operands: operands{urls: true, dirs: true}},
		{name: "serve", args: "[--listen ADDR] [--allow-file] [--allow-send] [flags]", parses: true,
			sub:    func() subcommandFlags { return &serveFlags{} },
			about:  "Serve a web gateway: each URL of every scheme as a page a browser shows, its links leading through the gateway.",
			shared: "Flags of a retrieval that apply to the gateway's retrievals",
			// The gateway writes pages, not --json; it never pipelines
			// (one URL a request) nor shows -I's metadata.
			skips: slices.Concat(retrievalOnly, fileOnly, []string{"json", "head", "no-pipeline"}),
			// A session is never started from a page (the gateway links
			// to it), and a page's search and form are its own.
			takes: func(caps schemes.Caps, o schemes.Option) bool { return !caps.Has(schemes.Interactive) && !o.OnlyNamed }},
		{name: "parse", args: "URL", operands: operands{urls: true}, about: "Print the URL's parts as JSON: as written, and as its scheme reads them."},
		{name: "canon", args: "URL", joins: true, operands: operands{urls: true}, about: "Print the URL's canonical form, the one urlget compares and fetches."},
		{name: "same", args: "A B", joins: true, operands: operands{urls: true}, about: `Print "same" (exit 0) or "different" (exit 1): whether two URLs have one canonical form, fragments aside.`},
		{name: "resolve", args: "BASE REF", joins: true, operands: operands{urls: true}, about: "Print the reference REF made absolute against BASE (RFC 3986 section 5)."},
		{name: "extract", args: "[FILE|-]", joins: true, about: "Print every URL found in free text (RFC 1738's appendix), from FILE or stdin.",
			operands: operands{files: true}},
		{name: "help", args: "[SUBCOMMAND|SCHEME]", about: "Show the flags of a retrieval, of a subcommand, or of one scheme's URLs, as --help does.",
			operands: operands{words: helpTopics}},
		{name: "completion", args: "bash|zsh|fish", joins: true, about: "Print the shell's completion script for urlget; see the README to install it.",
			operands: operands{words: completionShells}},
		{name: "man", joins: true, about: "Print urlget's manual page (roff): urlget man > ~/.local/share/man/man1/urlget.1"},
	}
}

// commandNamed is the subcommand name, or the retrieval for "".
func commandNamed(name string) (*command, bool) {
	cmds := commands()
	i := slices.IndexFunc(cmds, func(c *command) bool { return c.name == name })
	if i < 0 {
		return nil, false
	}
	return cmds[i], true
}

// subcommandNames are the names of the subcommands.
func subcommandNames() []string {
	var names []string
	for _, c := range commands()[1:] {
		names = append(names, c.name)
	}
	return names
}

// form is the command as its usage line writes it.
func (c *command) form() string {
	return strings.Join(strings.Fields("urlget "+c.name+" "+c.args), " ")
}

// flagSet is the flag set the command parses, with the schemes' flags on
// it; nil for a command that takes no flags. It is the one its parser
// makes, got by asking it for --help (parseFlagsFor), so that no flag is
// listed that the command would not accept.
func (c *command) flagSet() (*pflag.FlagSet, *schemeFlags) {
	if !c.parses {
		return nil, nil
	}
	var sub subcommandFlags
	if c.sub != nil {
		sub = c.sub()
	}
	_, err := parseFlagsFor([]string{"--help"}, strings.NewReader(""), io.Discard, sub)
	var h *helpShown
	if !errors.As(err, &h) {
		panic("urlget: --help did not stop the parser of " + c.form())
	}
	return h.fs, h.schemes
}

// section is a titled group of a command's flags, as its help lists
// them.
type section struct {
	title string
	flags *pflag.FlagSet
}

// sections are the command's flags, grouped as its help shows them: its
// own first (a subcommand's), then the retrieval's it takes, then the
// options of each scheme whose URLs it can be given. fs and s are its
// flagSet.
func (c *command) sections(fs *pflag.FlagSet, s *schemeFlags) []section {
	if fs == nil {
		return nil
	}
	own := newSection()
	if c.sub != nil {
		names := newSection()
		c.sub().add(names)
		names.VisitAll(func(f *pflag.Flag) { own.AddFlag(fs.Lookup(f.Name)) })
	}
	for _, name := range c.reads {
		own.AddFlag(fs.Lookup(name))
	}
	shared := newSection()
	fs.VisitAll(func(f *pflag.Flag) {
		if own.Lookup(f.Name) == nil && !s.declared(f.Name) && !slices.Contains(c.skips, f.Name) {
			shared.AddFlag(c.spelled(f))
		}
	})
	var out []section
	if own.HasFlags() {
		out = append(out, section{strings.ToUpper(c.name[:1]) + c.name[1:] + " flags", own})
	}
	title := c.shared
	if title == "" {
		title = "Flags"
	}
	out = append(out, section{title, shared})
	return append(out, s.sections(func(caps schemes.Caps, o schemes.Option) bool {
		return !slices.Contains(c.reads, o.Name) && !slices.Contains(c.skips, o.Name) && (c.takes == nil || c.takes(caps, o))
	})...)
}

// spelled is f with the short spelling the command adds to it, if any.
func (c *command) spelled(f *pflag.Flag) *pflag.Flag {
	short, ok := c.aliases[f.Name]
	if !ok {
		return f
	}
	alias := *f
	alias.Shorthand = short
	return &alias
}

// flags are every flag the command's help lists, each once.
func (c *command) flags() []*pflag.Flag {
	var out []*pflag.Flag
	for _, sec := range c.sections(c.flagSet()) {
		sec.flags.VisitAll(func(f *pflag.Flag) {
			if !slices.ContainsFunc(out, func(g *pflag.Flag) bool { return g.Name == f.Name }) {
				out = append(out, f)
			}
		})
	}
	return out
}

// newSection is an empty set to gather a section's flags in.
func newSection() *pflag.FlagSet { return pflag.NewFlagSet("section", pflag.ContinueOnError) }
