package gopher

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{
	{Name: "gopher", Port: 70, HostPrefixes: []string{"gopher."}},
	{Name: "gophers", Of: "gopher", TLS: true, Port: 7070},
}

// Declaration declares gopher (port 70) and gophers, gopher over TLS
// (port 7070: none is registered; what the few TLS gopher servers use),
// with the options of type 7 searches and Gopher+ forms and views.
func Declaration() schemes.Declaration {
	both := []string{"gopher", "gophers"}
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "search", Kind: schemes.String, Schemes: both, OnlyNamed: true,
				Help: "gopher: search `WORDS` for a type 7 item whose URL has none"},
			{Name: "form", Kind: schemes.Strings, Schemes: both, OnlyNamed: true,
				Help: "gopher: answer a Gopher+ +ASK question, `NAME=VALUE` (NAME: the prompt or its number; VALUE @FILE: the file's text); repeat"},
			{Name: "form-json", Kind: schemes.String, Schemes: both, OnlyNamed: true,
				Help: "gopher: +ASK answers from `FILE`, a JSON object of NAME: value (a string, or a list of lines)"},
			{Name: "views", Kind: schemes.Bool, Schemes: both, OnlyNamed: true,
				Help: "gopher: list the item's Gopher+ views (with their URLs) instead of retrieving it"},
			{Name: "gopher-unstuff", Kind: schemes.Bool, Schemes: both, Body: true,
				Help: "gopher: undo RFC 1436 dot-stuffing (\"..\" lines) in plain text replies"},
		},
		New:   newSchemes,
		Check: checkForm,
	}
}

// newSchemes builds the handler from the option values. A search given
// as "" searches for nothing; no search at all asks for the words.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	h := &Handler{Views: v.Bool("views"), Unstuff: v.Bool("gopher-unstuff"), words: v.Words()}
	if v.Has("search") {
		s := v.String("search")
		h.Search = &s
	}
	form, err := formAnswers(v)
	if err != nil {
		return nil, err
	}
	h.Form = form
	return Schemes(h), nil
}

// formAnswers reads the form-json file, then the form NAME=VALUE answers
// (NAME=@FILE: the file's text, for AskF and AskL), which win.
func formAnswers(v schemes.Values) (Answers, error) {
	var form Answers
	if name := v.String("form-json"); name != "" {
		opt := v.Name("form-json")
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, v.UsageError("form-json", fmt.Sprintf("%s: %v", opt, err), nil)
		}
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil, v.UsageError("form-json", fmt.Sprintf("%s %s: want a JSON object: %v", opt, name, err), nil)
		}
		form = Answers{}
		for k, x := range raw {
			switch x := x.(type) {
			case string:
				form[k] = x
			case bool:
				form[k] = map[bool]string{false: "0", true: "1"}[x]
			case float64:
				form[k] = fmt.Sprint(x)
			case []any:
				lines := make([]string, len(x))
				for i, l := range x {
					lines[i] = fmt.Sprint(l)
				}
				form[k] = strings.Join(lines, "\n")
			default:
				return nil, v.UsageError("form-json", fmt.Sprintf("%s: value of %q must be a string, number, boolean or list", opt, k), nil)
			}
		}
	}
	for _, kv := range v.Strings("form") {
		k, val, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, v.UsageError("form", fmt.Sprintf("%s %q: want NAME=VALUE", v.Name("form"), kv), nil)
		}
		if name, ok := strings.CutPrefix(val, "@"); ok {
			b, err := os.ReadFile(name)
			if err != nil {
				return nil, v.UsageError("form", fmt.Sprintf("%s %s=@%s: %v", v.Name("form"), k, name, err), nil)
			}
			val = string(b)
		}
		if form == nil {
			form = Answers{}
		}
		form[k] = val
	}
	return form, nil
}

// checkForm refuses form answers unless they have a form to answer:
// answers are sent only for a gopher URL ending in %09%09? (Gopher+ "?":
// fetch the +ASK form, then submit it), so for any other gopher URL, or
// with no gopher URL at all, they would be dropped without a word.
func checkForm(v schemes.Values, locs []schemes.Locator) error {
	if len(v.Strings("form")) == 0 && v.String("form-json") == "" {
		return nil
	}
	forms := 0
	for _, loc := range locs {
		g, ok := loc.(*URL)
		if !ok {
			continue
		}
		if g.Plus == nil || *g.Plus != "?" {
			return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "options", Kind: schemes.KindUsage, URL: loc.Redacted(), Part: "form",
				Msg: v.Name("form") + " answers a Gopher+ +ASK form, and this URL asks for none: end it with %09%09? to fetch the form and submit the answers"}
		}
		forms++
	}
	if forms == 0 {
		return v.UsageError("form", v.Name("form")+" answers a Gopher+ +ASK form: give a gopher URL ending in %09%09?", nil)
	}
	return nil
}
