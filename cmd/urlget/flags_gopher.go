package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/gopher"
)

// gopherFlags configure the gopher and gophers handler.
type gopherFlags struct {
	search   string
	form     []string
	formJSON string
	views    bool
	unstuff  bool
	fs       *pflag.FlagSet
}

func (f *gopherFlags) add(fs *pflag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.search, "search", "", "gopher: search `WORDS` for a type 7 item whose URL has none")
	fs.StringArrayVar(&f.form, "form", nil, "gopher: answer a Gopher+ +ASK question, `NAME=VALUE` (NAME: the prompt or its number; VALUE @FILE: the file's text); repeat")
	fs.StringVar(&f.formJSON, "form-json", "", "gopher: +ASK answers from `FILE`, a JSON object of NAME: value (a string, or a list of lines)")
	fs.BoolVar(&f.views, "views", false, "gopher: list the item's Gopher+ views (with their URLs) instead of retrieving it")
	fs.BoolVar(&f.unstuff, "gopher-unstuff", false, "gopher: undo RFC 1436 dot-stuffing (\"..\" lines) in plain text replies")
}

func (f *gopherFlags) apply(cfg *fetch.Config) error {
	h := &gopher.Handler{Views: f.views, Unstuff: f.unstuff}
	if f.fs != nil && f.fs.Changed("search") {
		s := f.search
		h.Search = &s
	}
	usage := func(part, msg string) error {
		return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: part, Msg: msg}
	}
	if f.formJSON != "" {
		b, err := os.ReadFile(f.formJSON)
		if err != nil {
			return usage("form-json", fmt.Sprintf("--form-json: %v", err))
		}
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			return usage("form-json", fmt.Sprintf("--form-json %s: want a JSON object: %v", f.formJSON, err))
		}
		h.Form = gopher.Answers{}
		for k, v := range raw {
			switch v := v.(type) {
			case string:
				h.Form[k] = v
			case bool:
				h.Form[k] = map[bool]string{false: "0", true: "1"}[v]
			case float64:
				h.Form[k] = fmt.Sprint(v)
			case []any:
				lines := make([]string, len(v))
				for i, l := range v {
					lines[i] = fmt.Sprint(l)
				}
				h.Form[k] = strings.Join(lines, "\n")
			default:
				return usage("form-json", fmt.Sprintf("--form-json: value of %q must be a string, number, boolean or list", k))
			}
		}
	}
	for _, kv := range f.form {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usage("form", fmt.Sprintf("--form %q: want NAME=VALUE", kv))
		}
		if name, ok := strings.CutPrefix(v, "@"); ok { // NAME=@FILE: the file's text (AskF, AskL)
			b, err := os.ReadFile(name)
			if err != nil {
				return usage("form", fmt.Sprintf("--form %s=@%s: %v", k, name, err))
			}
			v = string(b)
		}
		if h.Form == nil {
			h.Form = gopher.Answers{}
		}
		h.Form[k] = v
	}
	cfg.Gopher = h
	return nil
}

// check refuses --form and --form-json unless they have a form to answer:
// answers are sent only for a gopher URL ending in %09%09? (Gopher+ "?":
// fetch the +ASK form, then submit it), so for any other gopher URL, or
// with no gopher URL at all, they would be dropped without a word.
func (f *gopherFlags) check(locs []schemes.Locator) error {
	if len(f.form) == 0 && f.formJSON == "" {
		return nil
	}
	forms := 0
	for _, loc := range locs {
		g, ok := loc.(*gopher.URL)
		if !ok {
			continue
		}
		if g.Plus == nil || *g.Plus != "?" {
			return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "flags", Kind: schemes.KindUsage, URL: loc.Redacted(), Part: "form",
				Msg: "--form answers a Gopher+ +ASK form, and this URL asks for none: end it with %09%09? to fetch the form and submit the answers"}
		}
		forms++
	}
	if forms == 0 {
		return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "form",
			Msg: "--form answers a Gopher+ +ASK form: give a gopher URL ending in %09%09?"}
	}
	return nil
}
