package ftp

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/list")

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
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines := splitLines(data)
			entries := parseList(lines, now)
			if strings.HasPrefix(filepath.Base(f), "mlsd") {
				entries = parseMLSD(lines)
			}
			got, _ := json.MarshalIndent(entries, "", "  ")
			got = append(got, '\n')
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

func TestRenderLong(t *testing.T) {
	data, _ := os.ReadFile("testdata/list/unix.txt")
	out := render(parseList(splitLines(data), time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)), true)
	for _, want := range []string{"-           29 2026-11-21 05:37 lf.txt\n", "l            7 2024-02-29 00:00 latest -> big.bin\n",
		"this line is not a listing\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("long listing lacks %q:\n%s", want, out)
		}
	}
}

func TestNetrc(t *testing.T) {
	text := "machine other login o password op\nmacdef init\nmachine h login x\n\nmachine H.example login u password p w\ndefault login anonymous password d@e\n"
	if u, p, ok := lookupNetrc(text, "h.example"); !ok || u != "u" || p == nil || *p != "p" {
		t.Errorf("h.example: %q %v %v", u, p, ok)
	}
	if u, p, ok := lookupNetrc(text, "zzz"); !ok || u != "anonymous" || *p != "d@e" {
		t.Errorf("default: %q %v %v", u, p, ok)
	}
	if u, _, ok := lookupNetrc("machine h login x", "h"); !ok || u != "x" {
		t.Errorf("no password: %q %v", u, ok)
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
// panic, and every line comes back as an entry or is one of the lines the
// parsers drop on purpose (".", "..", "total", MLSD's cdir/pdir).
func FuzzParseList(f *testing.F) {
	files, _ := filepath.Glob("testdata/list/*.txt")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		lines := splitLines([]byte(s))
		if n := len(parseList(lines, now)); n > len(lines) {
			t.Fatalf("%d entries from %d lines", n, len(lines))
		}
		if n := len(parseMLSD(lines)); n > len(lines) {
			t.Fatalf("%d MLSD entries from %d lines", n, len(lines))
		}
		render(parseList(lines, now), true)
	})
}
