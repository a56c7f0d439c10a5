package schemes

import (
	"fmt"
	"slices"
	"time"
)

// OptionKind is the type of an option's value, which fixes the Go type it
// has in Options and the way a command line reads it.
type OptionKind int

// The kinds of option values, with the Go type each has in Options.
const (
	// Bool is a switch: bool.
	Bool OptionKind = iota
	// String is one word or text: string.
	String
	// Strings is a value given any number of times, in order: []string.
	Strings
	// Int is a whole number: int.
	Int
	// Duration is a length of time: time.Duration (on a command line, in
	// seconds).
	Duration
	// Sequence is a value given any number of times under the option's
	// Name or one of its Variants, kept in the order given: []Given. The
	// values of curl's -d, --data-binary and --data-urlencode join in the
	// order typed, each read as its spelling says: one option so.
	Sequence
)

// Option is one setting a scheme declares: the command turns it into a
// flag (with its help line and default), a library caller sets it in
// Options by its Name, and the declaration's New reads it from Values.
type Option struct {
	// Name is the option's name, lower-case words joined by "-"
	// ("nntp-server"); a command line spells it "--nntp-server".
	Name string
	// Short is a one-letter alias a command line also accepts ("H" for
	// curl's -H), or "".
	Short string
	// Kind is the type of its value.
	Kind OptionKind
	// Default is its value when none is given, of Kind's Go type; nil
	// means that type's zero value.
	Default any
	// Help is one line saying what it does; a word in backquotes names
	// its value on a command line ("`HOST[:PORT]`").
	Help string
	// Schemes are the declaration's scheme names it applies to.
	Schemes []string
	// OnlyNamed says the option is about the URLs a person names — the
	// words of a search, the answers to a form, an item's views instead
	// of the item — not a way to reach or read any URL of its schemes:
	// a caller that retrieves URLs it finds itself (a mirror's walk, a
	// gateway's pages, which carry their own searches and forms) does
	// not take it.
	OnlyNamed bool
	// Body says the option is about the bytes of a resource retrieved —
	// their representation, their text's lines, which part of an article
	// — which a listing is not: a caller that only lists does not take
	// it.
	Body bool
	// Variants are further spellings of a Sequence option, each a flag
	// of its own on a command line, whose values join the option's in
	// the order given (Given.As says which spelling each came under).
	Variants []Variant
	// Submits says the option makes requests carry what the person
	// typed for the server (a request body, a method, or what becomes
	// of them after a redirect). Such an option
	// is declared OnlyNamed too, and more than leave it unread, a caller
	// that retrieves URLs nobody named (a mirror's crawl, a gateway's
	// pages) refuses it, so that those bytes go only to the URLs named;
	// a caller that only lists does not take it either (a listing is
	// asked for with GET).
	Submits bool
}

// Variant is another spelling of a Sequence option (Option.Variants),
// whose values its declaration reads its own way.
type Variant struct {
	// Name and Short spell it as Option's do ("data-binary").
	Name, Short string
	// Help is one line saying what it does, as Option's.
	Help string
}

// Given is one value of a Sequence option: Value, given under As, the
// option's Name or one of its Variants' names.
type Given struct {
	As, Value string
}

// Spellings are o's names: its own, then its Variants'.
func (o Option) Spellings() []string {
	names := []string{o.Name}
	for _, v := range o.Variants {
		names = append(names, v.Name)
	}
	return names
}

// The common options: settings of the caller, not of one scheme, which
// several declarations read (Declaration.Uses). Their values are set in
// Options by these names like any declared option's.
const (
	// OptionMax (int) is the most entries a listing asks the server
	// for where a protocol takes a number; 0 means the scheme's own.
	OptionMax = "max"
	// OptionHead (bool) asks for a resource's metadata, not its body.
	OptionHead = "head"
	// OptionNoPipeline (bool) sends each request after the reply to the
	// one before, never ahead (turns Pipelines off).
	OptionNoPipeline = "no-pipeline"
	// OptionTerminal (bool) says a person at a terminal runs the caller:
	// a session may then be interactive.
	OptionTerminal = "terminal"
)

// commonOptions are the common options' kinds, so that Options checks
// their values as it checks declared ones.
var commonOptions = []Option{
	{Name: OptionMax, Kind: Int},
	{Name: OptionHead, Kind: Bool},
	{Name: OptionNoPipeline, Kind: Bool},
	{Name: OptionTerminal, Kind: Bool},
}

// Options are option values by option name, each of its Kind's Go type
// (bool, string, []string, int, time.Duration). An option absent has its
// Default.
type Options map[string]any

// check returns an error for a value of the wrong type for want.
func (k OptionKind) check(name string, v any) error {
	ok := false
	switch k {
	case Bool:
		_, ok = v.(bool)
	case String:
		_, ok = v.(string)
	case Strings:
		_, ok = v.([]string)
	case Int:
		_, ok = v.(int)
	case Duration:
		_, ok = v.(time.Duration)
	case Sequence:
		_, ok = v.([]Given)
	}
	if !ok {
		return &Error{Phase: "options", Kind: KindUsage, Part: name,
			Msg: fmt.Sprintf("option %s: %T given, want %s", name, v, k)}
	}
	return nil
}

// check returns an error for a value of the wrong type for o, or, of a
// Sequence, one given under a spelling o does not have.
func (o Option) check(v any) error {
	if err := o.Kind.check(o.Name, v); err != nil {
		return err
	}
	given, _ := v.([]Given)
	for _, g := range given {
		if !slices.Contains(o.Spellings(), g.As) {
			return &Error{Phase: "options", Kind: KindUsage, Part: o.Name,
				Msg: fmt.Sprintf("option %s: a value given as %q, which is none of its spellings %q", o.Name, g.As, o.Spellings())}
		}
	}
	return nil
}

// String names the kind's Go type.
func (k OptionKind) String() string {
	return [...]string{"bool", "string", "[]string", "int", "time.Duration", "[]schemes.Given"}[k]
}

// Values are the option values one declaration's New reads: those set in
// Options, else each option's Default.
type Values struct {
	set  Options
	opts map[string]Option
	name func(string) string
}

// ValuesOf returns d's values from opts. name says how the caller spells
// an option in messages ("--ascii" on a command line), and a setting of
// its own that a message names (Words.Setting: "--ssl-reqd" for
// SettingRequireTLS); nil, or "" for one, spells them as the library does
// ("option ascii", "fetch.RequireTLS").
func (d Declaration) ValuesOf(opts Options, name func(option string) string) Values {
	v := Values{set: opts, opts: map[string]Option{}, name: name}
	for _, o := range append(append([]Option{}, commonOptions...), d.Options...) {
		v.opts[o.Name] = o
	}
	return v
}

// Has reports whether the option was given (its value may equal the
// default): a gopher search of "" differs from no search.
func (v Values) Has(option string) bool {
	_, ok := v.set[option]
	return ok
}

// get is the option's value, else its default, else nil.
func (v Values) get(option string) any {
	if x, ok := v.set[option]; ok {
		return x
	}
	return v.opts[option].Default
}

// Bool is a Bool option's value.
func (v Values) Bool(option string) bool { b, _ := v.get(option).(bool); return b }

// String is a String option's value.
func (v Values) String(option string) string { s, _ := v.get(option).(string); return s }

// Strings is a Strings option's values.
func (v Values) Strings(option string) []string { s, _ := v.get(option).([]string); return s }

// Sequence is a Sequence option's values, in the order given.
func (v Values) Sequence(option string) []Given { s, _ := v.get(option).([]Given); return s }

// Int is an Int option's value.
func (v Values) Int(option string) int { n, _ := v.get(option).(int); return n }

// Duration is a Duration option's value.
func (v Values) Duration(option string) time.Duration {
	d, _ := v.get(option).(time.Duration)
	return d
}

// Name is how the caller spells option in messages, so that an error
// about a value names the setting the person gave.
func (v Values) Name(option string) string { return v.Words().Option(option) }

// Words are the caller's words for options and settings, which a handler
// keeps for the messages of its requests.
func (v Values) Words() Words { return Words{name: v.name} }

// Words spell options and settings in a handler's messages as its caller
// names them — a command line says "--search" and "--ssl-reqd" — so that
// the library's messages name no command's flags. A handler built from
// Values keeps them (Values.Words); the zero Words, a handler's built in
// code, spell them as the library does: "option search",
// "fetch.RequireTLS".
type Words struct{ name func(string) string }

// Option is how the caller names option, one of the declaration's options
// or a common one: "--search" on a command line, else "option search".
func (w Words) Option(option string) string {
	if w.name != nil {
		if s := w.name(option); s != "" {
			return s
		}
	}
	return "option " + option
}

// Setting is how the caller names setting, one of its own settings that a
// handler's message tells a person of (SettingRequireTLS,
// transport.SettingIdleTimeout): "--ssl-reqd" on a command line, else the
// setting as the library names it, "fetch.RequireTLS".
func (w Words) Setting(setting string) string {
	if w.name != nil {
		if s := w.name(setting); s != "" {
			return s
		}
	}
	return setting
}

// UsageError is the error of a value the declaration cannot use: a
// KindUsage *Error whose Part is the option.
func (v Values) UsageError(option, msg string, err error) error {
	return &Error{Phase: "options", Kind: KindUsage, Part: option, Msg: msg, Err: err}
}
