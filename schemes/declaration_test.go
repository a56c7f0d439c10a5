package schemes

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// testDeclaration declares "t" and its TLS variant "ts" with one option
// of each kind; New refuses a negative wait.
func testDeclaration(built *Values) Declaration {
	return Declaration{
		Names: []Name{{Name: "t", Port: 7}, {Name: "ts", Of: "t", TLS: true, Port: 8}},
		Options: []Option{
			{Name: "on", Kind: Bool},
			{Name: "word", Kind: String, Default: "w"},
			{Name: "many", Kind: Strings},
			{Name: "n", Kind: Int, Default: 3},
			{Name: "wait", Kind: Duration, Default: time.Second},
			{Name: "seq", Kind: Sequence, Variants: []Variant{{Name: "seq-raw"}}},
		},
		Uses: []string{OptionMax},
		New: func(v Values) ([]Scheme, error) {
			*built = v
			if v.Duration("wait") < 0 {
				return nil, v.UsageError("wait", v.Name("wait")+" must not be negative", nil)
			}
			return []Scheme{{Name: "ts", Parse: parseTest}, {Name: "t", Parse: parseTest}}, nil
		},
	}
}

// TestBuildValues: an option given has its value, one not given its
// default; Has tells a value equal to the default from none.
func TestBuildValues(t *testing.T) {
	var v Values
	seq := []Given{{As: "seq", Value: "a"}, {As: "seq-raw", Value: "b"}, {As: "seq", Value: "c"}}
	r, err := Build([]Declaration{testDeclaration(&v)}, Options{"on": true, "word": "", "many": []string{"a", "b"}, OptionMax: 9, "seq": seq}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Bool("on") || v.String("word") != "" || !v.Has("word") || len(v.Strings("many")) != 2 ||
		v.Int("n") != 3 || v.Has("n") || v.Duration("wait") != time.Second || v.Int(OptionMax) != 9 ||
		!slices.Equal(v.Sequence("seq"), seq) {
		t.Errorf("values %+v", v)
	}
	if n, ok := r.Declared("ts"); !ok || n.Of != "t" || !n.TLS || n.Port != 8 {
		t.Errorf("Declared(ts) = %+v, %v", n, ok)
	}
	if got := strings.Join(r.Names(), ","); got != "t,ts" {
		t.Errorf("names %s", got)
	}
}

// TestBuildRefuses: an unknown option, a value of the wrong type and one
// New refuses are usage errors naming the option as the caller spells it.
func TestBuildRefuses(t *testing.T) {
	flag := func(o string) string { return "--" + o }
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{"nope": true}, "no scheme has an option nope"},
		{Options{"n": "3"}, "option n: string given, want int"},
		{Options{"wait": 3}, "int given, want time.Duration"},
		{Options{"wait": -time.Second}, "--wait must not be negative"},
		{Options{"seq": []string{"a"}}, "[]string given, want []schemes.Given"},
		{Options{"seq": []Given{{As: "seq-other", Value: "a"}}}, `given as "seq-other"`},
	} {
		var v Values
		_, err := Build([]Declaration{testDeclaration(&v)}, tc.opts, flag)
		if KindOf(err) != KindUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.opts, err, tc.want)
		}
	}
}

// TestBuildOverride: a scheme the caller built replaces the declared one
// of its name; the others stay as New built them.
func TestBuildOverride(t *testing.T) {
	var v Values
	r, err := Build([]Declaration{testDeclaration(&v)}, nil, nil, Scheme{Name: "ts", Parse: parseTest, Handler: fetcher{}, Caps: Retrieves})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Lookup("ts"); s.Handler == nil {
		t.Errorf("ts not overridden: %+v", s)
	}
	if s, _ := r.Lookup("t"); s.Handler != nil {
		t.Errorf("t overridden: %+v", s)
	}
	if v.Name("wait") != "option wait" {
		t.Errorf("default spelling %q", v.Name("wait"))
	}
}

// TestWords: a handler's words name options and settings as its caller
// does, and as the library does where the caller has no word for one
// (no name function, or "" from it).
func TestWords(t *testing.T) {
	caller := func(s string) string {
		if s == SettingRequireTLS {
			return "" // a setting the caller has no word for
		}
		return "<" + s + ">"
	}
	for _, tc := range []struct {
		name                func(string) string
		wait, max, requires string
	}{
		{nil, "option wait", "option max", "fetch.RequireTLS"},
		{caller, "<wait>", "<max>", "fetch.RequireTLS"},
	} {
		w := testDeclaration(new(Values)).ValuesOf(nil, tc.name).Words()
		if got := w.Option("wait"); got != tc.wait {
			t.Errorf("Option(wait) = %q, want %q", got, tc.wait)
		}
		if got := w.Option(OptionMax); got != tc.max {
			t.Errorf("Option(max) = %q, want %q", got, tc.max)
		}
		if got := w.Setting(SettingRequireTLS); got != tc.requires {
			t.Errorf("Setting(RequireTLS) = %q, want %q", got, tc.requires)
		}
	}
	if got := (Words{}).Setting(SettingCredentials); got != "fetch.Credentials" {
		t.Errorf("the zero Words say %q", got)
	}
}

// TestBuildChecksDeclarations: a New that builds a name it does not
// declare is a programming error.
func TestBuildChecksDeclarations(t *testing.T) {
	d := Declaration{Names: []Name{{Name: "a"}}, New: func(Values) ([]Scheme, error) {
		return []Scheme{{Name: "b", Parse: parseTest}}, nil
	}}
	if got := catchPanic(func() { Build([]Declaration{d}, nil, nil) }); !strings.Contains(got, "does not declare") {
		t.Errorf("panic %q", got)
	}
}

// TestBuildSharedOption: two declarations may declare one option name
// alike (gopher's and gemini's "search"): one value reaches both New;
// declared with another kind, or for other callers, it panics.
func TestBuildSharedOption(t *testing.T) {
	got := map[string]string{}
	decl := func(name string, o Option) Declaration {
		return Declaration{Names: []Name{{Name: name}}, Options: []Option{o}, New: func(v Values) ([]Scheme, error) {
			if v.Has("words") {
				got[name] = v.String("words")
			}
			return []Scheme{{Name: name, Parse: parseTest}}, nil
		}}
	}
	words := Option{Name: "words", Kind: String, OnlyNamed: true}
	if _, err := Build([]Declaration{decl("a", words), decl("b", words)}, Options{"words": "x y"}, nil); err != nil {
		t.Fatal(err)
	}
	if got["a"] != "x y" || got["b"] != "x y" {
		t.Errorf("values %q, want both x y", got)
	}
	for _, other := range []Option{{Name: "words", Kind: Strings, OnlyNamed: true}, {Name: "words", Kind: String}} {
		if msg := catchPanic(func() { Build([]Declaration{decl("a", words), decl("b", other)}, nil, nil) }); !strings.Contains(msg, "declared twice") {
			t.Errorf("%+v beside %+v: panic %q", other, words, msg)
		}
	}
}
