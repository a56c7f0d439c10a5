package fetch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNetrcLookup: curl's reading of a netrc, moved here from the ftp
// handler with its cases: the first machine that names the host (any
// case), else default; macdef bodies, comments and unknown words skipped;
// quoted tokens.
func TestNetrcLookup(t *testing.T) {
	const text = "machine other login o password op\nmacdef init\nmachine h login x\n\n" +
		"machine H.example login u password p w\ndefault login anonymous password d@e\n"
	tests := []struct {
		name, text, host string
		login, password  string // password "-": none
		ok               bool
	}{
		{"machine, any case", text, "h.example", "u", "p", true},
		{"default", text, "zzz", "anonymous", "d@e", true},
		{"a macro body is no entry", text, "h", "anonymous", "d@e", true},
		{"login without password", "machine h login x", "h", "x", "-", true},
		{"no entry", "machine h login x", "other", "", "", false},
		{"first match wins", "machine h login a password 1\nmachine h login b password 2", "h", "a", "1", true},
		{"a machine without login shadows default", "machine h password p\ndefault login d password dp", "h", "", "", false},
		{"one line, several entries", "machine a login la password pa machine b login lb password pb", "b", "lb", "pb", true},
		{"quoted, with escapes", `machine h login "my user" password "a \"b\"\\c\td"`, "h", "my user", "a \"b\"\\c\td", true},
		{"comment", "# machine h login c password c\nmachine h login real password r", "h", "real", "r", true},
		{"account is read and skipped", "machine h login l account acct password p", "h", "l", "p", true},
		{"default before machines applies to others only", "default login d password dp\nmachine h login l password p", "x", "d", "dp", true},
		{"empty file", "", "h", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := ParseNetrc(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			login, pass, ok := n.Lookup(tc.host)
			gotPass := "-"
			if pass != nil {
				gotPass = *pass
			}
			if ok != tc.ok || (ok && (login != tc.login || gotPass != tc.password)) {
				t.Errorf("Lookup(%q) = %q, %q, %v; want %q, %q, %v", tc.host, login, gotPass, ok, tc.login, tc.password, tc.ok)
			}
		})
	}
}

// TestNetrcSyntaxErrors: what cannot be read as its author meant is an
// error, never a guess.
func TestNetrcSyntaxErrors(t *testing.T) {
	for _, text := range []string{
		`machine h login l password "open`,
		`machine h login l password "ends\`,
		"machine h login",
		"machine",
	} {
		if _, err := ParseNetrc(text); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}

func TestReadNetrc(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "netrc")
	if err := os.WriteFile(name, []byte("machine h login l password p\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	n, err := ReadNetrc(name)
	if err != nil {
		t.Fatal(err)
	}
	if u, p, ok := n.Credentials()("ftp", "h", 21); !ok || u != "l" || p != "p" {
		t.Errorf("Credentials: %q %q %v", u, p, ok)
	}
	if _, err := ReadNetrc(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	if err := os.WriteFile(name, []byte(`machine h password "x`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadNetrc(name); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("syntax error: %v, want one naming the file", err)
	}
	var none *Netrc
	if _, _, ok := none.Lookup("h"); ok {
		t.Error("a nil Netrc found a login")
	}
}
