package ftp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/list")

// goldenBase is the directory the sample listings are listed from: with a
// password, which the golden files must show redacted.
const goldenBase = "ftp://u:pw@h.example/pub/"

// parseText reads text as a listing's data connection would, line by line,
// and returns the entries parse gives, with Locators in loc's directory.
func parseText(t testing.TB, loc *URL, text string, parse func(string) parsed) []schemes.Entry {
	t.Helper()
	br := bufio.NewReaderSize(strings.NewReader(text), maxLine)
	out := []schemes.Entry{}
	for {
		line, err := readLine(br)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if line == "" {
			continue
		}
		if e, ok := locate(loc, loc.Cwd, parse(line)); ok {
			out = append(out, e)
		}
	}
}

// TestListGolden parses each sample listing in testdata/list and compares
// the entries, as JSON, with the .golden file next to it. Lines no parser
// reads must come out as raw entries. Run with -update after checking a
// change by eye.
func TestListGolden(t *testing.T) {
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	files, _ := filepath.Glob("testdata/list/*.txt")
	if len(files) < 5 {
		t.Fatalf("only %d sample listings", len(files))
	}
	loc, _ := parse(t, goldenBase)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parser := listParser(now)
			if strings.HasPrefix(filepath.Base(f), "mlsd") {
				parser = parseMLSD
			}
			entries := parseText(t, loc, string(data), parser)
			got, _ := json.MarshalIndent(entries, "", "  ")
			got = append(got, '\n')
			if bytes.Contains(got, []byte(":pw@")) {
				t.Errorf("the JSON of entries shows the password:\n%s", got)
			}
			golden := strings.TrimSuffix(f, ".txt") + ".golden"
			if *update {
				os.WriteFile(golden, got, 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n%s", f, golden, got)
			}
		})
	}
}

// TestPrecision: each format's times are as exact as what it shows.
func TestPrecision(t *testing.T) {
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	list := listParser(now)
	for _, tc := range []struct {
		format, line string
		parse        func(string) parsed
		mod          time.Time
		prec         time.Duration
	}{
		{"mlsd", "type=file;modify=20261121053755; f", parseMLSD, time.Date(2026, 11, 21, 5, 37, 55, 0, time.UTC), time.Second},
		{"mlsd fraction", "type=file;modify=20261121053755.123; f", parseMLSD,
			time.Date(2026, 11, 21, 5, 37, 55, 123e6, time.UTC), time.Millisecond},
		{"mlsd no time", "type=file;size=1; f", parseMLSD, time.Time{}, 0},
		{"unix time of day", "-rw-r--r-- 1 0 0 29 Nov 21 05:37 f", list, time.Date(2026, 11, 21, 5, 37, 0, 0, time.UTC), time.Minute},
		{"unix year", "-rw-r--r-- 1 0 0 29 Mar  3  2025 f", list, time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC), 24 * time.Hour},
		{"dos", "11-21-26  01:05PM                   29 f", list, time.Date(2026, 11, 21, 13, 5, 0, 0, time.UTC), time.Minute},
		{"eplf", "+m824255902,r,s10376,\tf", list, time.Unix(824255902, 0).UTC(), time.Second},
		{"vms seconds", "F.TXT;1  1  21-NOV-2026 05:37:55", list, time.Date(2026, 11, 21, 5, 37, 55, 0, time.UTC), time.Second},
		{"vms minutes", "F.TXT;1  1  21-NOV-2026 05:37", list, time.Date(2026, 11, 21, 5, 37, 0, 0, time.UTC), time.Minute},
	} {
		p := tc.parse(tc.line)
		if !p.ok || !p.e.ModTime.Equal(tc.mod) || p.e.Precision != tc.prec {
			t.Errorf("%s: %q gives %v ±%v (ok %v), want %v ±%v", tc.format, tc.line, p.e.ModTime, p.e.Precision, p.ok, tc.mod, tc.prec)
		}
	}
}

// TestReadLineBound: a line longer than the bound is cut, the rest of it
// dropped, and the next line read whole; a last line needs no line end.
func TestReadLineBound(t *testing.T) {
	long := strings.Repeat("x", 3*maxLine)
	br := bufio.NewReaderSize(strings.NewReader(long+"\r\nnext\r\nlast"), maxLine)
	var got []string
	for {
		l, err := readLine(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l)
	}
	if len(got) != 3 || got[0] != long[:maxLine] || got[1] != "next" || got[2] != "last" {
		lens := make([]int, len(got))
		for i, l := range got {
			lens[i] = len(l)
		}
		t.Errorf("lines of %v bytes, want [%d 4 4] (the long line cut, then next and last)", lens, maxLine)
	}
}

func TestParseReplies(t *testing.T) {
	if p, ok := parseEPSV("Entering Extended Passive Mode (|||30042|)"); !ok || p != 30042 {
		t.Errorf("EPSV %d %v", p, ok)
	}
	if p, ok := parsePASV("Entering Passive Mode (127,0,0,1,117,48)."); !ok || p != 30000 {
		t.Errorf("PASV %d %v", p, ok)
	}
	for _, bad := range []string{"(|||0|)", "(|||70000|)", "()", "nothing"} {
		if _, ok := parseEPSV(bad); ok {
			t.Errorf("EPSV %q accepted", bad)
		}
	}
	if d, ok := parsePWD(`"/a ""b""" is current`); !ok || d != `/a "b"` {
		t.Errorf("PWD %q %v", d, ok)
	}
	if tm, ok := parseMDTM("20261121053755.123"); !ok || tm != time.Date(2026, 11, 21, 5, 37, 55, 0, time.UTC) {
		t.Errorf("MDTM %v", tm)
	}
	for name, want := range map[string]byte{"README.txt": 'a', "motd": 'a', "f.bin": 'i', "x.tar.gz": 'i', "INDEX.HTML": 'a'} {
		if got := guessType(name); got != want {
			t.Errorf("guessType(%q) = %c", name, got)
		}
	}
}

// FuzzParseList feeds arbitrary listing text to every parser: none may
// panic, each line gives at most one entry, a parsed entry's Name is safe
// and a raw one names nothing.
func FuzzParseList(f *testing.F) {
	files, _ := filepath.Glob("testdata/list/*.txt")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	loc, _ := parse(f, goldenBase)
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		for _, parser := range []func(string) parsed{listParser(now), parseMLSD, parseNLST} {
			entries := parseText(t, loc, s, parser)
			if len(entries) > lines {
				t.Fatalf("%d entries from %d lines", len(entries), lines)
			}
			for _, e := range entries {
				if _, ok := schemes.SafeName(e.Name); e.Name != "" && !ok {
					t.Fatalf("unsafe name %q", e.Name)
				}
				if e.Kind == schemes.EntryRaw && (e.Name != "" || e.Locator != nil) {
					t.Fatalf("raw entry %+v names something", e)
				}
			}
		}
	})
}
