package rules

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sleepAllowed are the test functions (file, then the top-level function
// or method the call is in, as "Type.Method") that may call time.Sleep,
// each with the reason. A sleep is allowed only where it is the behaviour
// under test (a sender slow on purpose, a reply later than a schedule)
// and the test passes however long the scheduler makes it; a sleep that
// orders events (sleep, then assert that something happened or has not
// yet) is replaced by a channel, a hook, or internal/await (Until, Poll
// and Within for a condition with no event, Parked for "this goroutine
// is blocked now", IsParked for the same inside a condition or a fake).
// integration/ has no entry: each of its waits is for an event (a log
// line, a work file's record, a prompt); an entry there would be a fake
// that is slow on purpose.
var sleepAllowed = map[string]string{
	"transport/dialer_test.go: TestIdleTimeoutSlowTransfer":  "a sender slow on purpose (40 ms gaps under a 200 ms idle timeout): the behaviour under test",
	"transport/splice_test.go: TestReadToSlowTransfer":       "a sender slow on purpose (40 ms gaps under a 200 ms idle timeout): the behaviour under test",
	"fetch/retrylayer_test.go: slowReader.Read":              "a first attempt slower (300 ms) than RetryMaxTime (50 ms) that must still complete: the behaviour under test",
	"fetch/copy_test.go: drip.Read":                          "a body that trickles for 2 s, so that progress is seen reported every 250 ms: the behaviour under test (bounds loose)",
	"schemes/prospero/exchange_test.go: TestExchangeControl": "a reply (300 ms) later than the client's whole retransmission schedule (40 ms) after a wait packet: the behaviour under test",
	"fetch/segments_test.go: paced.Read": "a server paced at 64 MiB/s so that a 16 MiB download takes 250 ms on one connection and the others get a byte " +
		"before the first is done (Segments >= 2): a margin, not an order. No event replaces it: the server cannot see when the client " +
		"has read a range's first byte, and the one request that proves it (a takeover of the first connection's range) would tie the " +
		"test to the takeover rule; left for the retry work that owns this file",
	"cmd/urlget/segments_test.go: paced.Read": "as fetch/segments_test.go's paced: a margin for --segments to use at least two connections " +
		"(the test is of the flag, --json and -w, not of the takeover rule an event would depend on)",
}

// TestNoSleepInTests fails for each time.Sleep (called or referred to,
// under whatever name the file imports "time" by) in the module's test
// code outside sleepAllowed, and for an allow-list entry that no longer
// matches a sleep, so that the list stays what is left. Test code is a
// _test.go file, or a file that imports "testing" (the helpers tests
// share: internal/await, integration/testbed, integration/conformance,
// integration/browser, the fakes that report to a *testing.T), in the unit
// tests and in integration/ alike: a test against a real server waits for
// its events as a unit test does (a log line, a file's record, a prompt),
// only for longer. bench/ is not checked: a benchmark's pauses are part
// of what it measures.
func TestNoSleepInTests(t *testing.T) {
	var offenders []string
	seen := map[string]bool{}
	candidate := func(rel string) bool { return !under(rel, []string{"bench"}) }
	for _, f := range parseModule(t, candidate) {
		if !testCode(f) {
			continue
		}
		for _, s := range sleeps(f.fset, f.file) {
			key := f.rel + ": " + s.fn
			if _, ok := sleepAllowed[key]; ok {
				seen[key] = true
				continue
			}
			offenders = append(offenders, fmt.Sprintf("%s:%d (in %s)", f.rel, s.line, s.fn))
		}
	}
	if len(offenders) > 0 {
		t.Errorf("time.Sleep in tests: wait for the event instead (a channel, a hook, internal/await), "+
			"or, if the sleep is the behaviour under test, add it to sleepAllowed with the reason:\n\t%s",
			strings.Join(offenders, "\n\t"))
	}
	var stale []string
	for key := range sleepAllowed {
		if !seen[key] {
			stale = append(stale, key)
		}
	}
	slices.Sort(stale)
	if len(stale) > 0 {
		t.Errorf("sleepAllowed names functions with no time.Sleep any more; remove them:\n\t%s", strings.Join(stale, "\n\t"))
	}
}

// testCode reports whether f is test code: a _test.go file, or one that
// imports "testing" (no program of the module does).
func testCode(f srcFile) bool {
	if strings.HasSuffix(f.rel, "_test.go") {
		return true
	}
	for _, imp := range f.file.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "testing" {
			return true
		}
	}
	return false
}

// sleep is a use of time.Sleep: its line and the top-level function (or
// "Type.Method") it is in, "" outside any.
type sleep struct {
	line int
	fn   string
}

// sleeps returns the uses of time.Sleep in f.
func sleeps(fset *token.FileSet, f *ast.File) []sleep {
	var names []string // what f calls package time by
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path != "time" {
			continue
		}
		switch {
		case imp.Name == nil:
			names = append(names, "time")
		case imp.Name.Name == ".":
			names = append(names, ".")
		case imp.Name.Name != "_":
			names = append(names, imp.Name.Name)
		}
	}
	var out []sleep
	for _, d := range f.Decls {
		fn := ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				fn = recvName(fd.Recv.List[0].Type) + "." + fn
			}
		}
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && n.Sel.Name == "Sleep" && slices.Contains(names, id.Name) {
					out = append(out, sleep{fset.Position(n.Pos()).Line, fn})
				}
			case *ast.Ident:
				if n.Name == "Sleep" && slices.Contains(names, ".") {
					out = append(out, sleep{fset.Position(n.Pos()).Line, fn})
				}
			}
			return true
		})
	}
	return out
}

// recvName is a method receiver's type name, without * or type
// parameters.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
