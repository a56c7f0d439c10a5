package schemes

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// testLocator is a Locator over the generic URL, standing in for a scheme's
// typed value (a scheme package cannot be imported here: it imports this
// one).
type testLocator struct{ *URL }

func (l testLocator) Generic() *URL { return l.URL }
func (l testLocator) Fields() any   { return nil }

// LocalName is the path's last segment, as the hierarchical schemes give it.
func (l testLocator) LocalName() string { return LastSegmentName(l.Path) }

var _ Locator = testLocator{}

func mustLocator(t testing.TB, raw string) Locator {
	t.Helper()
	u, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return testLocator{u}
}

func TestSafeName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"", false},
		{".", false},
		{"..", false},
		{"a/b", false},
		{"/", false},
		{"dir/", false},
		{"a\x00b", false},
		{"\x00", false},
		{"...", true},
		{".hidden", true},
		{"..x", true},
		{"a b#c;d%20", true},
		{"café", true},
		{`a\b`, !pathSeparatorIsBackslash},
	}
	for _, tt := range tests {
		got, ok := SafeName(tt.name)
		if ok != tt.ok {
			t.Errorf("SafeName(%q) ok = %v, want %v", tt.name, ok, tt.ok)
		}
		if want := map[bool]string{true: tt.name, false: ""}[tt.ok]; got != want {
			t.Errorf("SafeName(%q) = %q, want %q", tt.name, got, want)
		}
	}
}

func TestSetName(t *testing.T) {
	tests := []struct {
		name              string
		before            Entry
		raw               string
		wantName, wantTtl string
	}{
		{"safe", Entry{}, "f.txt", "f.txt", ""},
		{"safe keeps the title", Entry{Title: "A file"}, "f.txt", "f.txt", "A file"},
		{"unsafe goes to the title", Entry{}, "../etc/passwd", "", "../etc/passwd"},
		{"unsafe keeps a title", Entry{Title: "Parent"}, "..", "", "Parent"},
		{"unsafe clears an earlier name", Entry{Name: "old"}, "a/b", "", "a/b"},
		{"empty names nothing", Entry{}, "", "", ""},
	}
	for _, tt := range tests {
		e := tt.before
		e.SetName(tt.raw)
		if e.Name != tt.wantName || e.Title != tt.wantTtl {
			t.Errorf("%s: Name %q Title %q, want %q and %q", tt.name, e.Name, e.Title, tt.wantName, tt.wantTtl)
		}
	}
}

func TestEntryLabel(t *testing.T) {
	if l := (Entry{Name: "n", Title: "t"}).Label(); l != "t" {
		t.Errorf("label %q, want the title", l)
	}
	if l := (Entry{Name: "n"}).Label(); l != "n" {
		t.Errorf("label %q, want the name", l)
	}
}

func TestEntryMarshalJSON(t *testing.T) {
	mod := time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)
	loc := mustLocator(t, "ftp://fred:s3cret@ftp.example.com/pub/a%20b.txt")
	full := Entry{Name: "a b.txt", Kind: EntryFile, Size: 1234, ModTime: mod, Precision: time.Minute,
		Locator: loc, Target: "", Extra: Extras{{"unix_mode", "0644"}, {"owner", "root"}}}
	full.Extra.Set("facts", "x")
	full.Extra.Set("unix_mode", "0600") // in place: the order stays
	tests := []struct {
		name string
		e    Entry
		want string
	}{
		{"full", full, `{"name":"a b.txt","kind":"file","size":1234,"modtime":"2024-03-01T12:30:00Z",` +
			`"precision_s":60,"url":"ftp://fred:****@ftp.example.com/pub/a%20b.txt",` +
			`"extra":{"unix_mode":"0600","owner":"root","facts":"x"}}`},
		{"unknown size and time", Entry{Name: "x", Kind: EntryUnknown, Size: -1, Precision: time.Second},
			`{"name":"x","kind":"unknown","size":null}`},
		{"empty file", Entry{Name: "e", Kind: EntryFile, Size: 0, ModTime: mod, Precision: 24 * time.Hour},
			`{"name":"e","kind":"file","size":0,"modtime":"2024-03-01T12:30:00Z","precision_s":86400}`},
		{"info line", Entry{Title: "Welcome!", Kind: EntryInfo, Size: -1, Extra: Extras{{"gopher_type", "i"}}},
			`{"name":"","title":"Welcome!","kind":"info","size":null,"extra":{"gopher_type":"i"}}`},
		{"link", Entry{Name: "l", Kind: EntryLink, Size: 7, Target: "../x"},
			`{"name":"l","kind":"link","size":7,"target":"../x"}`},
		{"fractional precision", Entry{Name: "p", Kind: EntryFile, Size: -1, ModTime: mod, Precision: 1500 * time.Millisecond},
			`{"name":"p","kind":"file","size":null,"modtime":"2024-03-01T12:30:00Z","precision_s":1.5}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.e)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if string(b) != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, b, tt.want)
		}
		if strings.Contains(string(b), "s3cret") {
			t.Errorf("%s: JSON leaks the password: %s", tt.name, b)
		}
	}
	// The Locator itself keeps the password: the entry can be fetched.
	if !strings.Contains(full.Locator.String(), "s3cret") {
		t.Errorf("Locator %q lost the password", full.Locator.String())
	}
	// Marshalling through a pointer and inside a slice uses the same form.
	b, _ := json.Marshal([]*Entry{&full})
	if !strings.Contains(string(b), `"url":"ftp://fred:****@`) {
		t.Errorf("entry pointer marshalled as %s", b)
	}
}

func TestExtras(t *testing.T) {
	var x Extras
	if _, ok := x.Get("a"); ok {
		t.Error("Get on empty Extras found something")
	}
	x.Set("b", "1")
	x.Set("a", "2")
	x.Set("b", "3")
	if v, ok := x.Get("b"); !ok || v != "3" {
		t.Errorf("Get(b) = %q, %v", v, ok)
	}
	b, _ := json.Marshal(x)
	if string(b) != `{"b":"3","a":"2"}` {
		t.Errorf("JSON %s", b)
	}
	b, _ = json.Marshal(Extras{{`q"uote`, "new\nline"}})
	if string(b) != `{"q\"uote":"new\nline"}` {
		t.Errorf("JSON %s: keys and values must be escaped", b)
	}
	b, _ = json.Marshal(Extras{})
	if string(b) != `{}` {
		t.Errorf("empty Extras JSON %s", b)
	}
}

func TestEntrySameTime(t *testing.T) {
	base := time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)
	tests := []struct {
		name  string
		prec  time.Duration // the entry's
		t     time.Time
		tprec time.Duration
		want  bool
	}{
		{"equal", time.Second, base, time.Second, true},
		{"half a second apart, to the second", time.Second, base.Add(500 * time.Millisecond), 0, true},
		{"a second apart", time.Second, base.Add(time.Second), time.Second, false},
		{"no precision counts as a second", 0, base.Add(999 * time.Millisecond), 0, true},
		{"within the entry's minute", time.Minute, base.Add(59 * time.Second), time.Second, true},
		{"a minute apart", time.Minute, base.Add(time.Minute), time.Second, false},
		{"the other side's precision is coarser", time.Second, base.Add(30 * time.Second), time.Minute, true},
		{"within a day", 24 * time.Hour, base.Add(11 * time.Hour), 0, true},
		{"earlier within the precision", time.Minute, base.Add(-30 * time.Second), 0, true},
		{"other time unknown", time.Second, time.Time{}, time.Second, false},
	}
	for _, tt := range tests {
		e := Entry{ModTime: base, Precision: tt.prec}
		if got := e.SameTime(tt.t, tt.tprec); got != tt.want {
			t.Errorf("%s: SameTime = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (Entry{}).SameTime(base, time.Hour) {
		t.Error("an entry without a time matched")
	}
}
