package schemes

import (
	"fmt"
	"slices"
)

// Declaration is everything a scheme package says about itself, so that
// adding a scheme is its folder and one line in the list (schemes/all):
// the registry, the port facts, the gateway's address rule and the
// command's flags and help are built from it. Each scheme package exports
// one, from a function named Declaration.
type Declaration struct {
	// Names are the schemes the package serves, base scheme first.
	Names []Name
	// Options are the settings of its handler, which New reads.
	Options []Option
	// Uses are the common options New reads (OptionMax, OptionHead,
	// OptionNoPipeline, OptionTerminal).
	Uses []string
	// New builds the schemes from the option values: one Scheme for each
	// of Names, in any order. An error is a value it cannot use
	// (Values.UsageError).
	New func(v Values) ([]Scheme, error)
	// Check, if set, refuses URLs the given options cannot apply to,
	// before anything is retrieved (gopher's form answers without a form
	// to answer). locs nil asks whether any URL at all would do.
	Check func(v Values, locs []Locator) error
}

// Name is one scheme of a declaration and its facts.
type Name struct {
	// Name is the lower-case scheme name ("https").
	Name string
	// Of is the base scheme whose URLs this one's share in shape, for a
	// TLS or draft variant ("http" for https, "telnet" for rlogin); ""
	// for a base scheme.
	Of string
	// TLS says the scheme is TLS from the start (https, ftps).
	TLS bool
	// Port is its default port (RFC 1738 and successors), 0 if its URLs
	// name no host.
	Port int
	// OwnPorts are further ports of the browsers' restricted list that
	// belong to the scheme's protocol (ftp's data port 20), which the
	// port policy lets it use.
	OwnPorts []int
	// Opaque says its URLs do not use RFC 1738 §3.1's "//" syntax
	// (news:id, mailto:addr).
	Opaque bool
	// HostPrefixes are the host name prefixes that make a URL written
	// without a scheme ("ftp.example.org/pub") one of this scheme's, as
	// curl guesses ("ftp." for ftp); "" claims every other host (curl's
	// http). Registry.SchemeForHost picks the longest that matches.
	HostPrefixes []string
}

// UsesOption reports whether the declaration reads the common option.
func (d Declaration) UsesOption(option string) bool { return slices.Contains(d.Uses, option) }

// Has reports whether scheme is one of the declaration's names.
func (d Declaration) Has(scheme string) bool {
	return slices.ContainsFunc(d.Names, func(n Name) bool { return n.Name == scheme })
}

// sameUse reports whether two declarations of one option name (an option
// schemes share, as gopher and gemini share "search": one setting, read
// by each declaration's New) agree on what a caller does with it: its
// Kind, and which callers take it. Their Help and Schemes may differ.
func sameUse(a, b Option) bool {
	return a.Kind == b.Kind && a.OnlyNamed == b.OnlyNamed && a.Body == b.Body && a.Submits == b.Submits
}

// Build returns a registry of the schemes decls declare, each built by
// its New from opts (name spells options and settings in messages, see
// ValuesOf). An option in opts that no declaration (nor the common set)
// has, or a value of the wrong type, is a KindUsage error, as is a value
// New refuses.
// override are schemes built by the caller (a handler configured in
// code), registered in place of the declared scheme of the same name.
// Register's checks apply to every scheme, and a declaration whose New
// builds other names than it declares panics: a programming error.
func Build(decls []Declaration, opts Options, name func(string) string, override ...Scheme) (*Registry, error) {
	declared := map[string]Option{}
	for _, o := range commonOptions {
		declared[o.Name] = o
	}
	for _, d := range decls {
		for _, o := range d.Options {
			if k, dup := declared[o.Name]; dup && !sameUse(k, o) {
				panic(fmt.Sprintf("schemes: option %q declared twice, as %v and %v, or for other callers (OnlyNamed, Body, Submits)", o.Name, k.Kind, o.Kind))
			}
			declared[o.Name] = o
		}
	}
	for n, v := range opts {
		o, ok := declared[n]
		if !ok {
			return nil, &Error{Phase: "options", Kind: KindUsage, Part: n, Msg: fmt.Sprintf("no scheme has an option %s", n)}
		}
		if err := o.check(v); err != nil {
			return nil, err
		}
	}
	r := NewRegistry()
	for _, d := range decls {
		built, err := d.New(d.ValuesOf(opts, name))
		if err != nil {
			return nil, err
		}
		if len(built) != len(d.Names) {
			panic(fmt.Sprintf("schemes: a declaration of %d names built %d schemes", len(d.Names), len(built)))
		}
		for _, s := range built {
			if !d.Has(s.Name) {
				panic(fmt.Sprintf("schemes: a declaration built %q, which it does not declare", s.Name))
			}
			if i := slices.IndexFunc(override, func(o Scheme) bool { return o.Name == s.Name }); i >= 0 {
				s = override[i]
			}
			r.Register(s)
		}
		for _, n := range d.Names {
			r.names[n.Name] = n
		}
	}
	return r, nil
}
