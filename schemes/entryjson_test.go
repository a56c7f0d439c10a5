package schemes

import (
	"encoding/json"
	"testing"
	"time"
)

// reflectedJSON is the entry's JSON as encoding/json wrote it by
// reflection before AppendJSON: the reference AppendJSON must equal.
func reflectedJSON(e Entry) ([]byte, error) {
	type out struct {
		Name      string          `json:"name"`
		Title     string          `json:"title,omitempty"`
		Kind      EntryKind       `json:"kind"`
		Size      *int64          `json:"size"`
		ModTime   time.Time       `json:"modtime,omitzero"`
		Precision float64         `json:"precision_s,omitempty"`
		URL       string          `json:"url,omitempty"`
		Target    string          `json:"target,omitempty"`
		Extra     json.RawMessage `json:"extra,omitempty"` // Extras apart, in its order
	}
	o := out{Name: e.Name, Title: e.Title, Kind: e.Kind, ModTime: e.ModTime, Target: e.Target}
	if e.Size >= 0 {
		o.Size = &e.Size
	}
	if !e.ModTime.IsZero() {
		o.Precision = e.Precision.Seconds()
	}
	if e.Locator != nil {
		o.URL = e.Locator.Redacted()
	}
	if len(e.Extra) > 0 {
		var pairs []byte
		pairs = append(pairs, '{')
		for i, kv := range e.Extra {
			if i > 0 {
				pairs = append(pairs, ',')
			}
			k, _ := json.Marshal(kv.Key)
			v, _ := json.Marshal(kv.Value)
			pairs = append(append(append(pairs, k...), ':'), v...)
		}
		o.Extra = append(pairs, '}')
	}
	return json.Marshal(o)
}

// jsonSamples are entries whose strings hold what encoding/json escapes:
// quotes, backslashes, control characters, HTML characters, U+2028 and
// U+2029, invalid UTF-8; precisions in both float forms.
func jsonSamples(t testing.TB) []Entry {
	mod := time.Date(2024, 3, 1, 12, 30, 0, 123456789, time.FixedZone("x", 3600))
	return []Entry{
		{Name: "plain.txt", Kind: EntryFile, Size: 10, ModTime: mod, Precision: time.Second, Locator: mustLocator(t, "ftp://u:pw@h/plain.txt")},
		{Name: "q\"b\\s\x00\x01\x1f\x7f\b\f\n\r\t", Title: "<a href='x'>&amp;</a>", Kind: EntryDir, Size: -1},
		{Name: "\u2028\u2029é日本\xff\xfe\xc3", Kind: EntryLink, Size: 0, Target: "../t\u2028"},
		{Name: "tiny", Kind: EntryFile, Size: -1, ModTime: mod, Precision: time.Nanosecond},
		{Name: "huge", Kind: EntryFile, Size: 1 << 62, ModTime: mod, Precision: 1 << 62},
		{Title: "info", Kind: EntryInfo, Size: -1, Extra: Extras{{"gopher_type", "i"}, {"k<", "v\x00&"}}},
		{Kind: EntryUnknown, Size: -1, ModTime: time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)},
	}
}

// TestAppendJSONIsReflection: AppendJSON writes what reflection wrote,
// byte for byte, for entries that exercise every escape and field.
func TestAppendJSONIsReflection(t *testing.T) {
	for _, e := range jsonSamples(t) {
		want, err := reflectedJSON(e)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.AppendJSON(nil); string(got) != string(want) {
			t.Errorf("%q:\ngot  %s\nwant %s", e.Name, got, want)
		}
		if got, _ := json.Marshal(e); string(got) != string(want) {
			t.Errorf("%q: json.Marshal\ngot  %s\nwant %s", e.Name, got, want)
		}
	}
}

// FuzzAppendJSON: for any strings and numbers, AppendJSON is valid JSON
// and what reflection writes.
func FuzzAppendJSON(f *testing.F) {
	for _, e := range jsonSamples(f) {
		f.Add(e.Name, e.Title, e.Target, e.Size, int64(e.Precision), "k", "v")
	}
	f.Fuzz(func(t *testing.T, name, title, target string, size, prec int64, k, v string) {
		e := Entry{Name: name, Title: title, Target: target, Kind: EntryFile, Size: size,
			ModTime: time.Unix(1700000000, 5), Precision: time.Duration(prec), Extra: Extras{{k, v}}}
		want, err := reflectedJSON(e)
		if err != nil {
			t.Skip(err)
		}
		got := e.AppendJSON(nil)
		if string(got) != string(want) || !json.Valid(got) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
}

// BenchmarkEntryJSON is one listing entry as --json writes it.
func BenchmarkEntryJSON(b *testing.B) {
	e := jsonSamples(b)[0]
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = e.AppendJSON(buf[:0])
	}
}

// BenchmarkEntryJSONReflection is the same entry by reflection, as
// before AppendJSON.
func BenchmarkEntryJSONReflection(b *testing.B) {
	e := jsonSamples(b)[0]
	b.ReportAllocs()
	for b.Loop() {
		reflectedJSON(e)
	}
}
