package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBareUsage: a bare urlget prints the command's forms and where the
// flags are — a short usage, not every flag — and exits 2; flags without
// a URL say so in one line.
func TestBareUsage(t *testing.T) {
	_, stderr, code := urlget(t, "")
	if code != 2 || !strings.HasPrefix(stderr, "Usage: urlget [flags] URL...\n") || !strings.Contains(stderr, "urlget mirror [flags] URL DIR") ||
		!strings.Contains(stderr, "Try 'urlget --help'") || strings.Contains(stderr, "--connect-timeout") || strings.Count(stderr, "\n") > 8 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = urlget(t, "", "-s")
	if code != 2 || stderr != "urlget: no URL given (urlget --help lists the flags)\n" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestHelp: --help lists every flag once, on stdout, each help text once
// (--max is one flag, read by nntp and wais); `urlget mirror --help`
// shows the mirror's usage and its own flags first, then the retrieval
// flags it takes, without those it refuses (-o, -O, -C, -i).
func TestHelp(t *testing.T) {
	stdout, stderr, code := urlget(t, "", "--help")
	if code != 0 || stderr != "" || strings.Count(stdout, "--max N ") != 1 || strings.Contains(stdout, "--delete") {
		t.Fatalf("exit %d, --help:\n%s\nstderr: %s", code, stdout, stderr)
	}
	seen := map[string]string{}
	for _, line := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "-") {
			continue
		}
		// "  -o, --output FILE     help": the help is past the flag's column.
		fields := strings.SplitN(strings.TrimSpace(line), "  ", 2)
		if len(fields) < 2 {
			continue
		}
		help := strings.TrimSpace(fields[1])
		if other, dup := seen[help]; dup {
			t.Errorf("%q and %q share the help %q", other, fields[0], help)
		}
		seen[help] = fields[0]
	}
	if len(seen) < 40 {
		t.Fatalf("read %d flags' help from --help:\n%s", len(seen), stdout)
	}
	stdout, _, code = urlget(t, "", "mirror", "--help")
	own := strings.Index(stdout, "Mirror flags:")
	shared := strings.Index(stdout, "Flags of a retrieval")
	if code != 0 || !strings.HasPrefix(stdout, "Usage: urlget mirror [flags] URL DIR\n") || own < 0 || shared < own {
		t.Fatalf("exit %d, mirror --help:\n%s", code, stdout)
	}
	for _, f := range []string{"--delete", "--dry-run", "--max-delete", "--parallel", "--include", "--exclude"} {
		if !strings.Contains(stdout[own:shared], f) {
			t.Errorf("mirror --help lacks %s among the mirror's flags", f)
		}
	}
	if !strings.Contains(stdout[shared:], "--user") {
		t.Errorf("mirror flags and retrieval flags not apart:\n%s", stdout)
	}
	for _, f := range []string{"--output ", "--remote-name", "--continue-at", "--input-file"} {
		if strings.Contains(stdout, f) {
			t.Errorf("mirror --help shows %s, which a mirror refuses", f)
		}
	}
}

// TestInputFileErrorsNameTheLine: a URL read with -i that fails is
// reported with the file and line it was on; a URL of the command line
// is not; an -i file that cannot be read names it.
func TestInputFileErrorsNameTheLine(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	os.WriteFile(list, []byte("# list\n\nftp://h/x;type=q\n  zork://x/\n"), 0o644)
	_, stderr, code := urlget(t, "", "-i", list, "file://"+dir+"/missing")
	for _, want := range []string{
		"urlget: file://" + dir + "/missing: ",
		"urlget: -i " + list + ", line 3: ftp://h/x;type=q: bad typecode",
		"urlget: -i " + list + ", line 4: zork://x/: unsupported scheme",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 8 {
		t.Errorf("exit %d, want the last failure's, 8", code)
	}
	_, stderr, code = urlget(t, "", "-i", filepath.Join(dir, "none"))
	if code != 2 || stderr != "urlget: -i "+filepath.Join(dir, "none")+": cannot read it: no such file or directory\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestREADMEInstallsFromAClone: the module is not published, so the
// README's Install section starts from a clone and never offers
// `go install …@latest` as a way that works.
func TestREADMEInstallsFromAClone(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	start := strings.Index(s, "## Install\n")
	if start < 0 {
		t.Fatal("no Install section")
	}
	install := s[start+len("## Install\n"):]
	install = install[:strings.Index(install, "\n## ")]
	if !strings.Contains(install, "git clone ") || !strings.Contains(install, "go install ./cmd/urlget") {
		t.Fatalf("Install does not install from a clone:\n%s", install)
	}
	if i := strings.Index(install, "```sh\ngo install github.com/urlget/urlget/cmd/urlget@latest"); i >= 0 {
		t.Fatalf("Install offers go install …@latest, which fails:\n%s", install)
	}
}
