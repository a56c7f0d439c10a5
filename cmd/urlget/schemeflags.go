package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/all"
)

// schemeFlags are the flags of the schemes' declared options
// (schemes/all): one flag an option, named as the option, with its help
// and default. Once parsed, those given become the options handed to
// the declarations, which build their handlers from them.
type schemeFlags struct {
	decls []schemes.Declaration
	fs    *pflag.FlagSet
	// values hold each option's flag storage, by option name.
	values map[string]any
	// short is the one-letter spelling of the options that have one.
	short map[string]string
}

// addSchemeFlags defines the flags of every declared option on fs (and
// of its variants). An option two declarations share (--search: gopher's
// type 7 words, gemini's input) is one flag, whose help joins each one's
// line, so that it says what the flag does for every scheme it reaches.
func addSchemeFlags(fs *pflag.FlagSet) *schemeFlags {
	s := &schemeFlags{decls: all.Declarations(), fs: fs, values: map[string]any{}, short: map[string]string{}}
	for _, d := range s.decls {
		for _, o := range d.Options {
			if _, dup := s.values[o.Name]; dup {
				if f := fs.Lookup(o.Name); f != nil && !strings.Contains(f.Usage, o.Help) {
					f.Usage += "; " + o.Help
				}
				continue
			}
			s.values[o.Name] = addOption(fs, o)
			if o.Short != "" {
				s.short[o.Name] = o.Short
			}
			for _, v := range o.Variants {
				if v.Short != "" {
					s.short[v.Name] = v.Short
				}
			}
		}
	}
	return s
}

// addOption defines o's flag and returns its storage. A Duration is
// given in seconds, as every time on urlget's command line. A Sequence
// is a flag for the option and one for each variant, which share one
// storage: the values in the order given, whichever flag gave them.
func addOption(fs *pflag.FlagSet, o schemes.Option) any {
	switch o.Kind {
	case schemes.Sequence:
		seq := &sequence{}
		fs.VarP(sequenceFlag{seq, o.Name}, o.Name, o.Short, o.Help)
		for _, v := range o.Variants {
			fs.VarP(sequenceFlag{seq, v.Name}, v.Name, v.Short, v.Help)
		}
		return seq
	case schemes.Bool:
		def, _ := o.Default.(bool)
		return fs.BoolP(o.Name, o.Short, def, o.Help)
	case schemes.String:
		def, _ := o.Default.(string)
		return fs.StringP(o.Name, o.Short, def, o.Help)
	case schemes.Strings:
		def, _ := o.Default.([]string)
		return fs.StringArrayP(o.Name, o.Short, def, o.Help)
	case schemes.Int:
		def, _ := o.Default.(int)
		return fs.IntP(o.Name, o.Short, def, o.Help)
	case schemes.Duration:
		def, _ := o.Default.(time.Duration)
		return fs.Float64P(o.Name, o.Short, def.Seconds(), o.Help)
	}
	panic(fmt.Sprintf("urlget: option %s of kind %v has no flag", o.Name, o.Kind))
}

// options are the values of the flags given on the command line (an
// option not given keeps its declared default) and of the common
// options, which are the command's own flags.
func (s *schemeFlags) options(common schemes.Options) schemes.Options {
	opts := schemes.Options{}
	for name, p := range s.values {
		if seq, ok := p.(*sequence); ok {
			if len(seq.given) > 0 { // under the option's flag or a variant's
				opts[name] = seq.given
			}
			continue
		}
		if !s.fs.Changed(name) {
			continue
		}
		switch p := p.(type) {
		case *bool:
			opts[name] = *p
		case *string:
			opts[name] = *p
		case *[]string:
			opts[name] = *p
		case *int:
			opts[name] = *p
		case *float64:
			opts[name] = seconds(*p)
		}
	}
	for name, v := range common {
		opts[name] = v
	}
	return opts
}

// flagOf spells an option as the person typed it: its short form when it
// has one ("-H"), else "--NAME". The handlers ask it for the library's
// settings their messages name as well (schemes.Words.Setting:
// schemes.SettingRequireTLS, ...), which it words as settingFlags do; ""
// for a setting without a flag of urlget's leaves the library's word.
func (s *schemeFlags) flagOf(option string) string {
	if f, ok := settingFlags[option]; ok {
		return f
	}
	if strings.Contains(option, ".") {
		return "" // a setting ("pkg.Field"), never an option's name
	}
	if c, ok := s.short[option]; ok {
		return "-" + c
	}
	return "--" + option
}

// check lets each declaration refuse URLs its options cannot apply to
// (schemes.Declaration.Check); locs nil asks whether any URL would do.
func (s *schemeFlags) check(opts schemes.Options, locs []schemes.Locator) error {
	for _, d := range s.decls {
		if d.Check == nil {
			continue
		}
		if err := d.Check(d.ValuesOf(opts, s.flagOf), locs); err != nil {
			return withCurlClash(err)
		}
	}
	return nil
}

// uses reports whether the declaration of scheme reads the common
// option (nntp reads -I/--head: a news article's header lines).
func (s *schemeFlags) uses(scheme, option string) bool {
	return slices.ContainsFunc(s.decls, func(d schemes.Declaration) bool { return d.Has(scheme) && d.UsesOption(option) })
}

// sections are the help sections of the declared options keep takes, a
// section a declaration, titled with the schemes those options apply to;
// keep is given the capabilities of the declaration's schemes together
// (a command that lists takes the options of schemes that can be listed).
// An option several declarations share is listed once, after them, in a
// section titled with all the schemes it applies to.
func (s *schemeFlags) sections(keep func(caps schemes.Caps, o schemes.Option) bool) []section {
	owners := map[string]int{}
	for _, d := range s.decls {
		for _, o := range d.Options {
			owners[o.Name]++
		}
	}
	var out []section
	for _, d := range s.decls {
		own := func(caps schemes.Caps, o schemes.Option) bool { return owners[o.Name] == 1 && keep(caps, o) }
		if sec, ok := s.section(d, own); ok {
			out = append(out, sec)
		}
	}
	var shared []section
	for _, d := range s.decls {
		for _, o := range d.Options {
			if owners[o.Name] < 2 || !keep(declCaps(d), o) {
				continue
			}
			i := slices.IndexFunc(shared, func(sec section) bool { return sec.flags.Lookup(o.Name) != nil })
			if i < 0 {
				shared = append(shared, section{flags: newSection()})
				i = len(shared) - 1
				for _, name := range o.Spellings() {
					if f := s.fs.Lookup(name); f != nil {
						shared[i].flags.AddFlag(f)
					}
				}
			}
			shared[i].title = joinSchemes(shared[i].title, o.Schemes)
		}
	}
	for _, sec := range shared {
		out = append(out, section{"Flags of " + sec.title + " URLs", sec.flags})
	}
	return out
}

// joinSchemes adds the names not yet in list, a ", "-separated list.
func joinSchemes(list string, names []string) string {
	have := strings.Split(list, ", ")
	for _, n := range names {
		if !slices.Contains(have, n) {
			have = append(have, n)
		}
	}
	return strings.TrimPrefix(strings.Join(have, ", "), ", ")
}

// declCaps are the capabilities of d's schemes together.
func declCaps(d schemes.Declaration) schemes.Caps {
	var caps schemes.Caps
	for _, n := range d.Names {
		if sc, ok := urlRegistry().Lookup(n.Name); ok {
			caps |= sc.Caps
		}
	}
	return caps
}

// section is d's section of the options keep takes; false when it takes
// none.
func (s *schemeFlags) section(d schemes.Declaration, keep func(caps schemes.Caps, o schemes.Option) bool) (section, bool) {
	caps := declCaps(d)
	flags := newSection()
	var names []string
	for _, o := range d.Options {
		if !keep(caps, o) {
			continue
		}
		for _, name := range o.Spellings() {
			if f := s.fs.Lookup(name); f != nil && flags.Lookup(name) == nil {
				flags.AddFlag(f)
			}
		}
		for _, n := range o.Schemes {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if !flags.HasFlags() {
		return section{}, false
	}
	return section{"Flags of " + strings.Join(names, ", ") + " URLs", flags}, true
}

// bool is the value of the declared Bool option name: false when it
// was not given, or is no Bool.
func (s *schemeFlags) bool(name string) bool {
	p, ok := s.values[name].(*bool)
	return ok && *p
}

// declared reports whether name is a declared option's flag (or one of
// its variants').
func (s *schemeFlags) declared(name string) bool {
	for _, d := range s.decls {
		for _, o := range d.Options {
			if slices.Contains(o.Spellings(), name) {
				return true
			}
		}
	}
	return false
}

// refuseSubmits fails when a flag of an option that submits (a request
// body or method: schemes.Option.Submits) is given to the subcommand
// sub, which retrieves URLs that no person named (the links a mirror
// follows, the pages a gateway serves) or lists with GET (ls), saying
// why: what the person typed for a server goes only to the URLs named
// on a retrieval's command line.
func (s *schemeFlags) refuseSubmits(sub, why string) error {
	for _, d := range s.decls {
		for _, o := range d.Options {
			if !o.Submits {
				continue
			}
			for _, name := range o.Spellings() {
				if s.fs.Changed(name) {
					return fmt.Errorf("%s is not %s flag: %s", s.flagOf(name), sub, why)
				}
			}
		}
	}
	return nil
}

// sequence is the storage of a Sequence option's flags.
type sequence struct{ given []schemes.Given }

// sequenceFlag is one spelling of a Sequence option: each value given
// joins the option's values, under that spelling.
type sequenceFlag struct {
	seq *sequence
	as  string
}

func (f sequenceFlag) String() string { return "" }
func (f sequenceFlag) Type() string   { return "string" }

// Set adds a value given with the flag.
func (f sequenceFlag) Set(v string) error {
	f.seq.given = append(f.seq.given, schemes.Given{As: f.as, Value: v})
	return nil
}
