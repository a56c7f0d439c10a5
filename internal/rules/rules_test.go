package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
)

const module = "github.com/urlget/urlget"

// schemeDir is the scheme package a path lies in ("ftp" for
// schemes/ftp/conn.go), or "" outside every one (schemes/caps.go is the
// contract, not a scheme).
func schemeDir(rel string) string {
	rest, ok := strings.CutPrefix(rel, "schemes/")
	if !ok {
		return ""
	}
	dir, _, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return dir
}

// listPackage is the one package that may import every scheme package:
// the list of schemes.
const listPackage = "all"

// TestNoSchemePackageImportsAnother: a scheme's package stands alone —
// what two schemes share lives in schemes/ or a lower package — so that
// one can be added, changed or removed without touching another.
func TestNoSchemePackageImportsAnother(t *testing.T) {
	found := map[string][]string{}
	for _, f := range sources(t, "schemes") {
		own := schemeDir(f.rel)
		if own == "" || own == listPackage {
			continue
		}
		for _, imp := range f.file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			other, ok := strings.CutPrefix(p, module+"/schemes/")
			if !ok {
				continue
			}
			if top, _, _ := strings.Cut(other, "/"); top != own {
				found[f.rel] = append(found[f.rel], fmt.Sprintf("%s imports %s", place{f.rel, f.fset.Position(imp.Pos()).Line}, p))
			}
		}
	}
	checkDebt(t, "no scheme package imports another", found, nil)
}

// flagName is a command-line flag named in a string: "--max-time",
// "(--cacert FILE)"; a lone "--" is not one.
var flagName = regexp.MustCompile(`(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*`)

// libraryDirs are the library's packages: what a Go program that uses
// urlget links, and which speaks no command's language.
var libraryDirs = []string{"fetch", "mirror", "schemes", "transport", "gateway", "internal"}

// flagDebt is where the library still names flags, file by file (issue
// 32: errors are to carry typed fields that the command words).
var flagDebt = map[string]int{
	"gateway/server.go": 1, // curl's --request-target, in an example
}

// TestLibraryNamesNoFlags: no string in a library package names a
// command-line flag; the command renders the library's typed errors in
// its own words.
func TestLibraryNamesNoFlags(t *testing.T) {
	found := map[string][]string{}
	for _, f := range sources(t, libraryDirs...) {
		stringLits(f, func(s string, pos fmt.Stringer) {
			for _, m := range flagName.FindAllString(s, -1) {
				found[f.rel] = append(found[f.rel], fmt.Sprintf("%s: %s", pos, strings.TrimLeft(m, " ([\"'`,;:")))
			}
		})
	}
	checkDebt(t, "the library names no flag", found, flagDebt)
}

// testSupport are packages that only tests import: tables of URLs for
// every scheme, which name them all by design.
var testSupport = map[string]bool{"internal/schemestest": true}

// schemeNameDebt is where a scheme's name is still written outside its
// package, file by file (issue 32: capabilities and declarations instead).
// What remains is no scheme knowledge: protocol knowledge of the
// contract, or a word that is also a scheme's name.
var schemeNameDebt = map[string]int{
	"cmd/urlget/parallelprogress.go": 1,  // the English word "file" (1/1 file), not the scheme
	"mirror/delete.go":               1,  // the word "file" in a message
	"mirror/local.go":                1,  // the word "file" in a message
	"schemes/entry.go":               1,  // EntryFile, an entry's kind
	"schemes/extract.go":             11, // RFC 1738 §3's schemes (and https), recognized bare in prose
	"schemes/form.go":                1,  // QuestionFile, a question's kind
	"transport/ports.go":             9,  // the restricted ports' IANA service names ("reserved for ftp"; port 115's "sftp", the Simple File Transfer Protocol; 389 and 636, "ldap" and "ldaps")
	"transport/proxykind.go":         2,  // the proxy kinds the transport speaks (http, https)
}

// TestSchemeNamesOnlyInTheirPackages: outside schemes/<name>/ no string is
// a scheme's name ("ftp") or starts a URL of one ("news:", "gopher://"):
// what a scheme can do is read from its declaration and capabilities, so
// that adding one touches its own folder and the list.
func TestSchemeNamesOnlyInTheirPackages(t *testing.T) {
	names := (&fetch.Client{}).AllProtocols()
	if len(names) < 10 {
		t.Fatalf("only %d schemes registered: %v", len(names), names)
	}
	found := map[string][]string{}
	for _, f := range sources(t, append(libraryDirs, "cmd")...) {
		if schemeDir(f.rel) != "" || testSupport[f.rel[:strings.LastIndexByte(f.rel, '/')]] {
			continue
		}
		stringLits(f, func(s string, pos fmt.Stringer) {
			name, _, _ := strings.Cut(strings.ToLower(s), ":")
			if names.Has(name) && (s == name || strings.HasPrefix(strings.ToLower(s), name+":")) {
				found[f.rel] = append(found[f.rel], fmt.Sprintf("%s: %q", pos, s))
			}
		})
	}
	checkDebt(t, "scheme names only in their packages", found, schemeNameDebt)
}
