package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// srcFile is one parsed non-test Go file of the module, by its
// slash-separated path from the module root.
type srcFile struct {
	rel  string
	fset *token.FileSet
	file *ast.File
}

// sources parses every non-test .go file of the module under the given
// top-level directories (all when none).
func sources(t *testing.T, dirs ...string) []srcFile {
	t.Helper()
	return parseModule(t, func(rel string) bool { return !strings.HasSuffix(rel, "_test.go") && under(rel, dirs) })
}

// parseModule parses every .go file of the module that keep accepts (by
// its slash-separated path from the module root), skipping testdata,
// hidden directories and other modules.
func parseModule(t *testing.T, keep func(rel string) bool) []srcFile {
	t.Helper()
	root := moduleRoot(t)
	var out []srcFile
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if de.IsDir() {
			name := de.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || !keep(rel) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		out = append(out, srcFile{rel, fset, f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no source found")
	}
	return out
}

// under reports whether rel lies in one of dirs (all when none).
func under(rel string, dirs []string) bool {
	if len(dirs) == 0 {
		return true
	}
	for _, d := range dirs {
		if strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// moduleRoot is the directory of the module's go.mod, above this one.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}

// stringLits calls fn for every string literal of f, unquoted, with its
// position; import paths and struct tags are not literals of the code.
func stringLits(f srcFile, fn func(s string, pos fmt.Stringer)) {
	ast.Inspect(f.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Field:
			if n.Tag != nil {
				ast.Inspect(n.Type, func(m ast.Node) bool { return visitLit(f, m, fn) })
				return false
			}
		}
		return visitLit(f, n, fn)
	})
}

func visitLit(f srcFile, n ast.Node, fn func(s string, pos fmt.Stringer)) bool {
	lit, ok := n.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return true
	}
	if s, err := strconv.Unquote(lit.Value); err == nil {
		fn(s, place{f.rel, f.fset.Position(lit.Pos()).Line})
	}
	return true
}

// place is a line of a file, shown as "fetch/policy.go:113".
type place struct {
	rel  string
	line int
}

func (p place) String() string { return fmt.Sprintf("%s:%d", p.rel, p.line) }

// checkDebt compares found (file → count of offences) with debt, the
// known exceptions: a file over its debt, or with offences and no debt,
// fails, naming each offence; a file under its debt is logged, so that
// the list is lowered.
func checkDebt(t *testing.T, rule string, found map[string][]string, debt map[string]int) {
	t.Helper()
	files := make([]string, 0, len(found))
	total := 0
	for f, offs := range found {
		files = append(files, f)
		total += len(offs)
	}
	sort.Strings(files)
	for _, f := range files {
		if n := len(found[f]); n > debt[f] {
			t.Errorf("%s: %d offences against %q, %d allowed:\n\t%s", f, n, rule, debt[f], strings.Join(found[f], "\n\t"))
		}
	}
	owed := 0
	for f, n := range debt {
		owed += n
		if got := len(found[f]); got < n {
			t.Logf("%s: %d offences against %q, down from %d: lower its debt", f, got, rule, n)
		}
	}
	t.Logf("%q: %d offences in %d files (debt %d)", rule, total, len(files), owed)
}
