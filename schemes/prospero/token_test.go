package prospero

import (
	"reflect"
	"strings"
	"testing"
)

// tokenTests: a line as the server writes it, its tokens, and the line a
// client writes for those tokens (quote), which must read back the same.
var tokenTests = []struct {
	line string
	want []string
}{
	{"LINK  L EXTERNAL ftp-readme INTERNET-D FTP.EXAMPLE.ORG ASCII '/pub/README' 0",
		[]string{"LINK", "L", "EXTERNAL", "ftp-readme", "INTERNET-D", "FTP.EXAMPLE.ORG", "ASCII", "/pub/README", "0"}},
	{"LINK  L EXTERNAL gopher-about INTERNET-D GOPHER.EXAMPLE.ORG(70) ASCII 0'/about.txt' 0",
		[]string{"LINK", "L", "EXTERNAL", "gopher-about", "INTERNET-D", "GOPHER.EXAMPLE.ORG(70)", "ASCII", "0/about.txt", "0"}},
	{"LINK  L EXTERNAL with' space.txt' INTERNET-D H ASCII '/pub/with space.txt' 0",
		[]string{"LINK", "L", "EXTERNAL", "with space.txt", "INTERNET-D", "H", "ASCII", "/pub/with space.txt", "0"}},
	{"ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' BINARY",
		[]string{"ATTRIBUTE", "CACHED", "FIELD", "ACCESS-METHOD", "AFTP", "", "", "", "", "BINARY"}},
	{"SIZE 52' bytes'", []string{"SIZE", "52 bytes"}},
	{"NAME 'it''s'", []string{"NAME", "it's"}},
	{"DATA Hello' from a\nfile.\x00\xff\r'", []string{"DATA", "Hello from a\nfile.\x00\xff\r"}},
	{"A\tB", []string{"A", "B"}},
}

func TestTokens(t *testing.T) {
	for _, tt := range tokenTests {
		got, err := tokens(tt.line)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokens(%q) = %q, %v; want %q", tt.line, got, err, tt.want)
			continue
		}
		// Round trip: the tokens quoted by the client read back the same.
		var q []string
		for _, tok := range got {
			q = append(q, quote(tok))
		}
		back, err := tokens(strings.Join(q, " "))
		if err != nil || !reflect.DeepEqual(back, tt.want) {
			t.Errorf("round trip of %q via %q: %q", tt.line, strings.Join(q, " "), back)
		}
	}
}

func TestSplitLines(t *testing.T) {
	msg := "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA Hello' from a native file served by Prospero dirsrv.\n'\n" +
		"LINK  L FILE a  \r\nVERSION-NOT-SUPPORTED TRY 1-5"
	got, err := splitLines([]byte(msg))
	want := []string{
		"ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA Hello' from a native file served by Prospero dirsrv.\n'",
		"LINK  L FILE a",
		"VERSION-NOT-SUPPORTED TRY 1-5",
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("splitLines = %q, %v", got, err)
	}
	toks, _ := tokens(got[0])
	if data := toks[len(toks)-1]; data != "Hello from a native file served by Prospero dirsrv.\n" || len(data) != 52 {
		t.Errorf("contents %q (%d bytes), want the 52 of the notes", data, len(data))
	}
}

func FuzzTokens(f *testing.F) {
	for _, tt := range tokenTests {
		f.Add(tt.line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, err := tokens(line)
		if err != nil {
			return
		}
		var q []string
		for _, tok := range got {
			q = append(q, quote(tok))
		}
		back, err := tokens(strings.Join(q, " "))
		if err != nil || !reflect.DeepEqual(back, got) && !(len(back) == 0 && len(got) == 0) {
			t.Fatalf("%q → %q → %q", line, q, back)
		}
		if _, err := splitLines([]byte(line)); err != nil {
			t.Fatal(err)
		}
	})
}
