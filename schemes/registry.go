package schemes

import (
	"fmt"
	"sort"
	"strings"
)

// Scheme describes one URL scheme: how to parse it and, when urlget
// implements its access algorithm, how to carry that out. Scheme packages
// build their values in a Schemes function; nothing registers itself.
type Scheme struct {
	// Name is the lower-case scheme name ("ftp").
	Name string
	// Parse turns the generic URL into the scheme's typed value, checking
	// the scheme-specific syntax. Errors are *Error of KindUsage naming the
	// part at fault.
	Parse func(u *URL) (Locator, error)
	// Handler carries out the access algorithm; nil when urlget parses the
	// scheme but cannot (yet) retrieve it. A non-nil Handler must also
	// implement Explainer.
	Handler Handler
	// Caps says what Handler can do; Register checks the claims (Lists
	// needs a Lister, Stats a Stater, anything a Handler).
	Caps Caps
}

// Registry maps scheme names to Schemes. It is filled explicitly by its
// owner (see Build and fetch.NewRegistry), never by package init functions.
type Registry struct {
	schemes map[string]Scheme
	// names are the declared facts of the schemes Build registered.
	names map[string]Name
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{schemes: map[string]Scheme{}, names: map[string]Name{}}
}

// Register adds s. It panics if the name is already registered, if Parse is
// nil, or if a handler does not implement Explainer: all are programming
// errors in the registry's owner.
func (r *Registry) Register(s Scheme) {
	if s.Name == "" || s.Parse == nil {
		panic("schemes: Register of a scheme without name or parser")
	}
	if _, dup := r.schemes[s.Name]; dup {
		panic(fmt.Sprintf("schemes: Register called twice for scheme %q", s.Name))
	}
	if s.Handler != nil {
		if _, ok := s.Handler.(Explainer); !ok {
			panic(fmt.Sprintf("schemes: handler for %q does not implement Explainer", s.Name))
		}
	} else if s.Caps != 0 {
		panic(fmt.Sprintf("schemes: scheme %q claims %v without a handler", s.Name, s.Caps))
	}
	if _, ok := s.Handler.(Lister); s.Caps.Has(Lists) && !ok {
		panic(fmt.Sprintf("schemes: scheme %q claims lists but its handler is not a Lister", s.Name))
	}
	if _, ok := s.Handler.(Stater); s.Caps.Has(Stats) && !ok {
		panic(fmt.Sprintf("schemes: scheme %q claims stats but its handler is not a Stater", s.Name))
	}
	if s.Caps.Has(Crawls) && !s.Caps.Has(Lists) {
		panic(fmt.Sprintf("schemes: scheme %q claims crawls but not lists", s.Name))
	}
	if s.Caps.Has(Pages) && !s.Caps.Has(Lists) {
		panic(fmt.Sprintf("schemes: scheme %q claims pages but not lists", s.Name))
	}
	if s.Caps.Has(Conditional) && !s.Caps.Has(Retrieves) {
		panic(fmt.Sprintf("schemes: scheme %q claims conditional but not retrieves", s.Name))
	}
	if s.Caps.Has(Ranges) && !s.Caps.Has(Retrieves) || s.Caps.Has(MultiRanges) && !s.Caps.Has(Ranges) {
		panic(fmt.Sprintf("schemes: scheme %q claims %v: ranges need retrieves, multi-ranges need ranges", s.Name, s.Caps))
	}
	if s.Caps.Has(RedirectTarget) && !s.Caps.Redirectable() {
		panic(fmt.Sprintf("schemes: scheme %q claims redirect-target but %v", s.Name, s.Caps))
	}
	if s.Caps.Has(TLS | Local) {
		panic(fmt.Sprintf("schemes: scheme %q claims tls but opens no connection (local)", s.Name))
	}
	if s.Caps.Has(Encrypted | Local) {
		panic(fmt.Sprintf("schemes: scheme %q claims encrypted but opens no connection (local)", s.Name))
	}
	r.schemes[s.Name] = s
}

// Lookup returns the scheme registered under name (lower-case).
func (r *Registry) Lookup(name string) (Scheme, bool) {
	s, ok := r.schemes[name]
	return s, ok
}

// Map returns a registry of r's schemes, each as f returns it, with
// their declared facts (a gateway swaps a Local scheme's handler for one
// that refuses). Register's checks apply to what f returns.
func (r *Registry) Map(f func(Scheme) Scheme) *Registry {
	out := NewRegistry()
	for _, name := range r.Names() {
		out.Register(f(r.schemes[name]))
		if n, ok := r.names[name]; ok {
			out.names[name] = n
		}
	}
	return out
}

// Declared returns the declared facts of the scheme name (Build's
// registries have them; a scheme added with Register alone has none).
func (r *Registry) Declared(name string) (Name, bool) {
	n, ok := r.names[name]
	return n, ok
}

// SchemeForHost is the scheme a URL written without one takes from its
// host name (lower case): the registered scheme whose declared
// HostPrefixes has the longest prefix of host ("" matching any), or ""
// when none claims it.
func (r *Registry) SchemeForHost(host string) string {
	best, bestLen := "", -1
	for _, name := range r.Names() { // sorted: the same answer each time
		n, ok := r.names[name]
		if !ok {
			continue
		}
		for _, p := range n.HostPrefixes {
			if strings.HasPrefix(host, p) && len(p) > bestLen {
				best, bestLen = name, len(p)
			}
		}
	}
	return best
}

// Names returns the registered scheme names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.schemes))
	for n := range r.schemes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Parse reads raw as an absolute URL and then with its scheme's parser. An
// unknown scheme is a KindUnsupported error.
func (r *Registry) Parse(raw string) (Locator, error) {
	u, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	s, ok := r.schemes[u.Scheme]
	if !ok {
		return nil, &Error{Scheme: u.Scheme, Phase: "parse", Kind: KindUnsupported, URL: RedactString(raw),
			Part: "scheme", Msg: fmt.Sprintf("unsupported scheme %q", u.Scheme)}
	}
	return s.Parse(u)
}
