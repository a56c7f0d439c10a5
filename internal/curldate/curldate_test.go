package curldate

import (
	"net/http"
	"testing"
	"time"
)

// dateTable is curl_getdate's documented forms (curl's lib/parsedate.c
// and docs/libcurl/curl_getdate.md) and the dates curl's -z examples
// use, with the time each stands for, and what is no date. The round
// trip: a date written as HTTP writes it (RFC 1123) reads back as the
// same time.
var dateTable = []struct {
	in   string
	want string // RFC 1123 in UTC; "" when it is no date
}{
	{"Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"06-Nov-94 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"1994 Nov 6 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"GMT 08:49:37 06-Nov-94 Sunday", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"94 6 Nov 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT"},
	{"1994 Nov 6", "Sun, 06 Nov 1994 00:00:00 GMT"},
	{"06-Nov-94", "Sun, 06 Nov 1994 00:00:00 GMT"},
	{"Sun Nov 6 94", "Sun, 06 Nov 1994 00:00:00 GMT"},
	{"1994.Nov.6", "Sun, 06 Nov 1994 00:00:00 GMT"},
	{"Sun/Nov/6/94/GMT", "Sun, 06 Nov 1994 00:00:00 GMT"},
	{"Sun, 06 Nov 1994 08:49:37 CET", "Sun, 06 Nov 1994 07:49:37 GMT"},
	{"06 Nov 1994 08:49:37 EST", "Sun, 06 Nov 1994 13:49:37 GMT"},
	{"Sun, 12 Sep 2004 15:05:58 -0700", "Sun, 12 Sep 2004 22:05:58 GMT"},
	{"Sat, 11 Sep 2004 21:32:11 +0200", "Sat, 11 Sep 2004 19:32:11 GMT"},
	{"20040912 15:05:58 -0700", "Sun, 12 Sep 2004 22:05:58 GMT"},
	{"20040911 +0200", "Fri, 10 Sep 2004 22:00:00 GMT"},
	{"20 Jan 2025", "Mon, 20 Jan 2025 00:00:00 GMT"},
	{"Jan 10, 2017", "Tue, 10 Jan 2017 00:00:00 GMT"},
	{"-Jan 10, 2017", "Tue, 10 Jan 2017 00:00:00 GMT"},
	{"Wed 01 Sep 2021 12:18:00", "Wed, 01 Sep 2021 12:18:00 GMT"},
	{"Wed 01 Sep 2021 12:18", "Wed, 01 Sep 2021 12:18:00 GMT"},
	{"1 jan 2000 z", "Sat, 01 Jan 2000 00:00:00 GMT"},
	{"1 Jan 2000 08:00 A", "Sat, 01 Jan 2000 09:00:00 GMT"}, // curl's sign for the letters
	{"12: 30 6 Nov 1994", "Sun, 06 Nov 1994 12:30:00 GMT"},  // sscanf's "%02d" skips spaces
	{"31 Feb 2001", "Sat, 03 Mar 2001 00:00:00 GMT"},
	{"01 Jan 2000 23:59:60", "Sun, 02 Jan 2000 00:00:00 GMT"},
	{"6 Nov 1994 8:49:37 GMT Sun 77", "Sun, 06 Nov 1994 08:49:37 GMT"}, // six words are read
	{"6 Nov 1994 8:49:37 extra", ""},
	{"31 Dec 1969 23:59:59 GMT", "Thu, 01 Jan 1970 00:00:00 GMT"},
	{"", ""},
	{"yesterday", ""},
	{"2025-01-20", ""},
	{"Nov 1994", ""},
	{"32 Nov 1994", ""},
	{"6 Nov 1500", ""},
	{"6 Nov 1994 24:00:00", ""},
	{"6 Nov 1994 12:60:00", ""},
	{"Sun Mon 6 Nov 1994", ""},
	{"6 Nov 1994 99999999999", ""},
	{"README.txt", ""},
}

func TestParse(t *testing.T) {
	for _, tc := range dateTable {
		got, ok := Parse(tc.in)
		if ok != (tc.want != "") || ok && got.UTC().Format(http.TimeFormat) != tc.want {
			t.Errorf("%q: %v %v, want %q", tc.in, got.UTC().Format(http.TimeFormat), ok, tc.want)
			continue
		}
		if !ok {
			continue
		}
		back, ok := Parse(got.UTC().Format(http.TimeFormat))
		if !ok || !back.Equal(got) {
			t.Errorf("%q: %s reads back as %v %v", tc.in, got.UTC().Format(http.TimeFormat), back, ok)
		}
	}
}

// FuzzParse: whatever reads as a date is one curl could mean (a year
// from 1583 on, in whole seconds), and written as HTTP writes dates it
// reads back as the same time.
func FuzzParse(f *testing.F) {
	for _, tc := range dateTable {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := Parse(s)
		if !ok {
			return
		}
		if got.Year() < 1582 || got.Nanosecond() != 0 {
			t.Fatalf("%q: %v", s, got)
		}
		if got.Year() > 9999 {
			return // RFC 1123 writes four digits
		}
		back, ok := Parse(got.UTC().Format(http.TimeFormat))
		if !ok || !back.Equal(got) {
			t.Fatalf("%q: %v reads back as %v %v", s, got, back, ok)
		}
	})
}

// TestParseIsUTC: a date without a zone is UTC, whatever the local zone.
func TestParseIsUTC(t *testing.T) {
	got, ok := Parse("20 Jan 2025 10:00")
	if !ok || !got.Equal(time.Date(2025, 1, 20, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("%v %v", got, ok)
	}
}
