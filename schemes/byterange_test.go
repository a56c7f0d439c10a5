package schemes

import (
	"errors"
	"strings"
	"testing"
)

// byteRangeTable is curl's -r syntax as its documentation gives it, and
// what urlget refuses: each form with what it parses to and how it is
// written back (the round trip: "" when it fails).
var byteRangeTable = []struct {
	in    string
	want  []ByteRange
	round string // FormatByteRanges of what it parses to
	fails string // a substring of the error
}{
	{in: "0-499", want: []ByteRange{{First: 0, Length: 500}}, round: "0-499"},
	{in: "500-999", want: []ByteRange{{First: 500, Length: 500}}, round: "500-999"},
	{in: "-500", want: []ByteRange{{Suffix: 500}}, round: "-500"},
	{in: "9500-", want: []ByteRange{{First: 9500}}, round: "9500-"},
	{in: "0-0,-1", want: []ByteRange{{Length: 1}, {Suffix: 1}}, round: "0-0,-1"},
	{in: "100-199,500-599", want: []ByteRange{{First: 100, Length: 100}, {First: 500, Length: 100}}, round: "100-199,500-599"},
	{in: "0-", want: []ByteRange{{}}, round: "0-"},
	{in: "7-7", want: []ByteRange{{First: 7, Length: 1}}, round: "7-7"},
	{in: "007-9", want: []ByteRange{{First: 7, Length: 3}}, round: "7-9"},
	{in: " 1-2 , 4-5 ", want: []ByteRange{{First: 1, Length: 2}, {First: 4, Length: 2}}, round: "1-2,4-5"},
	{in: "9223372036854775806-", want: []ByteRange{{First: 9223372036854775806}}, round: "9223372036854775806-"},
	{in: "0-9223372036854775806", want: []ByteRange{{Length: 9223372036854775807}}, round: "0-9223372036854775806"},
	{in: "", fails: "no range"},
	{in: "  ", fails: "no range"},
	{in: "-", fails: "want N-M"},
	{in: "5", fails: "want N-M"},
	{in: "5-3", fails: "ends before it starts"},
	{in: "-0", fails: "no bytes"},
	{in: "a-b", fails: "digits 0-9"},
	{in: "+5-6", fails: "digits 0-9"},
	{in: "5--6", fails: "digits 0-9"},
	{in: "1-2,", fails: "want N-M"},
	{in: ",1-2", fails: "want N-M"},
	{in: "0x10-20", fails: "digits 0-9"},
	{in: "1 -2", fails: "digits 0-9"},
	{in: "9223372036854775808-", fails: "too large"},
	{in: "0-9223372036854775807", fails: "too long"},
	{in: "1-9223372036854775807", fails: "too long"},
}

// TestParseByteRanges: curl's forms parse to their ranges and are
// written back in their canonical form, which parses to the same.
func TestParseByteRanges(t *testing.T) {
	for _, tc := range byteRangeTable {
		got, err := ParseByteRanges(tc.in)
		if tc.fails != "" {
			if err == nil || !strings.Contains(err.Error(), tc.fails) {
				t.Errorf("%q: %v %v, want an error with %q", tc.in, got, err, tc.fails)
			}
			continue
		}
		if err != nil || !equalRanges(got, tc.want) {
			t.Errorf("%q: %+v %v, want %+v", tc.in, got, err, tc.want)
			continue
		}
		if round := FormatByteRanges(got); round != tc.round {
			t.Errorf("%q: written back as %q, want %q", tc.in, round, tc.round)
		}
		if again, err := ParseByteRanges(tc.round); err != nil || !equalRanges(again, got) {
			t.Errorf("%q: %q parses to %+v %v", tc.in, tc.round, again, err)
		}
	}
}

func equalRanges(a, b []ByteRange) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzParseByteRanges: whatever parses is written back as text that
// parses to the same ranges, each of which is a range HTTP allows (a
// suffix of at least one byte, or a first byte with a length that fits),
// and the text is digits, "-" and "," only: nothing else could reach a
// Range header.
func FuzzParseByteRanges(f *testing.F) {
	for _, tc := range byteRangeTable {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ParseByteRanges(s)
		if err != nil {
			return
		}
		text := FormatByteRanges(rs)
		if strings.Trim(text, "0123456789-,") != "" {
			t.Fatalf("%q written as %q", s, text)
		}
		again, err := ParseByteRanges(text)
		if err != nil || !equalRanges(again, rs) {
			t.Fatalf("%q: %q parses to %+v %v, was %+v", s, text, again, err, rs)
		}
		for _, r := range rs {
			ok := r.Suffix > 0 && r.First == 0 && r.Length == 0 ||
				r.Suffix == 0 && r.First >= 0 && r.Length >= 0 && r.First+r.Length >= r.First
			if !ok {
				t.Fatalf("%q: range %+v", s, r)
			}
		}
	})
}

// TestRanged: an Offset is a byte range only without a partial copy; a
// Length, a Suffix or Ranges always ask for part of the resource.
func TestRanged(t *testing.T) {
	partial := Partial{Record: &ResumeRecord{Size: 10}}
	for _, tc := range []struct {
		req  Request
		want bool
	}{
		{Request{}, false},
		{Request{Offset: 5}, true},
		{Request{Offset: 5, Partial: partial}, false},
		{Request{Length: 5}, true},
		{Request{Suffix: 5}, true},
		{Request{Ranges: []ByteRange{{Length: 1}, {Suffix: 1}}}, true},
	} {
		if got := tc.req.Ranged(); got != tc.want {
			t.Errorf("%+v: Ranged %v", tc.req, got)
		}
	}
}

// TestRangeError: a range whose first byte is at or past the end is no
// range, with the size in its chain; a suffix, a list, a continuation
// and an unknown size are never refused here.
func TestRangeError(t *testing.T) {
	for _, tc := range []struct {
		req  Request
		size int64
		fail bool
	}{
		{Request{Offset: 10}, 10, true},
		{Request{Offset: 11, Length: 5}, 10, true},
		{Request{Length: 5}, 0, true},
		{Request{Offset: 9}, 10, false},
		{Request{Offset: 10}, -1, false},
		{Request{Suffix: 20}, 10, false},
		{Request{Suffix: 1}, 0, false},
		{Request{Offset: 10, Partial: Partial{Record: &ResumeRecord{Size: 10}}}, 10, false},
	} {
		err := tc.req.RangeError("x", tc.size, 416)
		if (err != nil) != tc.fail {
			t.Errorf("%+v on %d bytes: %v", tc.req, tc.size, err)
			continue
		}
		var rns *RangeNotSatisfiable
		if err != nil && (!errors.As(err, &rns) || rns.Size != tc.size || KindOf(err) != KindProtocol || err.(*Error).Code != 416) {
			t.Errorf("%+v: %#v", tc.req, err)
		}
	}
}

// TestWhole: Whole asks for all of the resource, whatever the request
// asked of it.
func TestWhole(t *testing.T) {
	req := &Request{Offset: 3, Length: 4, Suffix: 0, Ranges: []ByteRange{{}}, Partial: Partial{Record: &ResumeRecord{}},
		IfModifiedSince: aTime, IfUnmodifiedSince: aTime, Exact: true}
	w := req.Whole()
	if w.Ranged() || w.Offset != 0 || w.Partial != (Partial{}) || !w.IfModifiedSince.IsZero() || !w.IfUnmodifiedSince.IsZero() || !w.Exact {
		t.Errorf("Whole: %+v", w)
	}
	if req.Offset != 3 || req.Partial.Record == nil {
		t.Errorf("Whole changed the request: %+v", req)
	}
}
