package fetch

import (
	"sync"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/all"
)

// Config says which schemes a registry holds and how their handlers are
// set up. fetch knows no scheme by name: each declaration turns the
// option values into its handler.
type Config struct {
	// Schemes are the declarations registered; nil means all of
	// urlget's (all.Declarations: the ten schemes of RFC 1738 and their
	// TLS and draft variants).
	Schemes []schemes.Declaration
	// Options are the values of the declarations' options and of the
	// common ones (schemes.OptionMax, ...), by name, each of its kind's
	// Go type: {"nntp-server": "news.example", "ascii": true}. An option
	// not given has its default.
	Options schemes.Options
	// OptionName spells an option's name in messages (a command line
	// says "--ascii"), and a setting of the caller's that a handler's
	// message names (schemes.Words.Setting: "--ssl-reqd" for
	// schemes.SettingRequireTLS); nil, or "" for one, says "option ascii"
	// and "fetch.RequireTLS".
	OptionName func(option string) string
	// Override are schemes whose handler the caller built itself (a
	// telnet session on buffers), registered in place of the declared
	// scheme of the same name.
	Override []schemes.Scheme
}

// NewRegistry returns a registry of the schemes cfg declares, each with
// the handler its declaration builds from cfg.Options. An unknown option,
// a value of the wrong type or one a scheme cannot use is a KindUsage
// error.
func NewRegistry(cfg Config) (*schemes.Registry, error) {
	decls := cfg.Schemes
	if decls == nil {
		decls = all.Declarations()
	}
	return schemes.Build(decls, cfg.Options, cfg.OptionName, cfg.Override...)
}

// defaultRegistry is the zero Client's: every scheme with its defaults,
// which cannot fail.
var defaultRegistry = sync.OnceValue(func() *schemes.Registry {
	r, err := NewRegistry(Config{})
	if err != nil {
		panic("fetch: the default options do not build: " + err.Error())
	}
	return r
})

// DefaultRegistry returns the registry a Client without one uses: every
// scheme of all.Declarations with its default options. It is built once
// and shared; a Registry is not changed after it is built.
func DefaultRegistry() *schemes.Registry { return defaultRegistry() }
