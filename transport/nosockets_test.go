package transport

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// socketFuncs are, per import path, the package-level names whose use opens
// a socket (a connection, a listener, a DNS query) or a TLS session without
// going through this package: the calls, and the types and variables whose
// only purpose is to do so (net.Dialer, http.DefaultClient).
var socketFuncs = map[string][]string{
	"net": {"Dial", "DialTimeout", "DialTCP", "DialUDP", "DialIP", "DialUnix", "Dialer",
		"Listen", "ListenPacket", "ListenTCP", "ListenUDP", "ListenIP", "ListenUnix", "ListenUnixgram",
		"ListenMulticastUDP", "ListenConfig", "FileConn", "FileListener", "FilePacketConn",
		"LookupHost", "LookupIP", "LookupAddr", "LookupCNAME", "LookupMX", "LookupNS", "LookupPort",
		"LookupSRV", "LookupTXT", "DefaultResolver"},
	"crypto/tls":            {"Dial", "DialWithDialer", "Dialer", "Client", "Server", "Listen", "NewListener"},
	"net/http":              {"Get", "Head", "Post", "PostForm", "DefaultClient", "DefaultTransport", "ListenAndServe", "ListenAndServeTLS"},
	"net/http/httptest":     {"NewServer", "NewTLSServer", "NewUnstartedServer"},
	"net/smtp":              {"Dial", "SendMail"},
	"net/textproto":         {"Dial"},
	"net/rpc":               {"Dial", "DialHTTP", "DialHTTPPath"},
	"net/rpc/jsonrpc":       {"Dial"},
	"syscall":               {"Socket", "Connect"},
	"golang.org/x/sys/unix": {"Socket", "Connect"},
}

// TestNoSocketsOutsideTransport is the repository-wide check that every
// connection urlget makes goes through transport.Dialer (schemes.Dialer),
// so that the port policy, proxies, timeouts, cancellation, tracing and
// TLS verification apply to all of them. It parses every non-test .go file
// of the module and fails, naming file:line, for each use of a function
// that opens a socket or a TLS session by itself (socketFuncs), found as a
// package-qualified selector under whatever name the file imports the
// package by; and for an http.Client without a Transport (it would use
// http.DefaultTransport) or an http.Transport without a DialContext (it
// would dial by itself). An http.Transport whose DialContext calls our
// Dialer, as schemes/http builds, is fine.
//
// Exempt are transport/ itself, test files (their servers listen),
// integration/: its test servers, fault proxies and the testbed's
// readiness probes are test infrastructure that is never linked into
// urlget or the library, and bench/, whose tools (bench/cmd/limit: the
// least a client can do, to measure what a server delivers at most) dial
// by themselves on purpose; transport/sshagenttest, under transport/, is
// test infrastructure too (in-test agents and local servers). So that the
// exemptions cannot become a way around the rule, no non-test file
// outside them may import any of them.
// A file that dot-imports a checked package fails too: its calls cannot
// be told apart.
func TestNoSocketsOutsideTransport(t *testing.T) {
	root, modPath := moduleRoot(t)
	var offenders []string
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if de.IsDir() {
			name := de.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor" || rel == "transport" || rel == "integration" || rel == "bench") {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			// A file another change left unparsable is that change's
			// failure; say so rather than pass over it in silence.
			offenders = append(offenders, fmt.Sprintf("%s: cannot parse: %v", rel, err))
			return nil
		}
		for _, o := range socketUses(fset, f, modPath) {
			offenders = append(offenders, rel+":"+o)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(offenders) > 0 {
		t.Errorf("code outside transport/ opens sockets or TLS sessions by itself; dial through "+
			"schemes.Dialer (req.Dialer.Dial, DialDatagram, StartTLS) instead:\n\t%s",
			strings.Join(offenders, "\n\t"))
	}
}

// moduleRoot finds the directory of go.mod above the working directory
// and the module path it declares.
func moduleRoot(t *testing.T) (dir, modPath string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(m), `"`)
				}
			}
			t.Fatalf("%s/go.mod declares no module", dir)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}

// socketUses returns "line: what" for each use in f of something that
// opens a socket by itself (see TestNoSocketsOutsideTransport), and for
// each import of modPath's packages exempt from it (integration, bench, sshagenttest).
func socketUses(fset *token.FileSet, f *ast.File, modPath string) []string {
	var out []string
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, fmt.Sprintf("%d: %s", fset.Position(n.Pos()).Line, fmt.Sprintf(format, args...)))
	}
	local := map[string]string{} // import name in this file -> import path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		for _, exempt := range []string{"/integration", "/bench", "/transport/sshagenttest"} {
			if p == modPath+exempt || strings.HasPrefix(p, modPath+exempt+"/") {
				report(imp, "imports %s, which is exempt from this check only as test or bench infrastructure", p)
			}
		}
		if _, watched := socketFuncs[p]; !watched {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		switch name {
		case "_":
		case ".":
			report(imp, "dot-imports %s, whose socket calls this check cannot see", p)
		default:
			local[name] = p
		}
	}
	if len(local) == 0 {
		return out
	}
	// qualified returns the import path and name n refers to when it is
	// pkg.Name for a checked package.
	qualified := func(n ast.Expr) (string, string, bool) {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return "", "", false
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return "", "", false
		}
		p, ok := local[id.Name]
		return p, sel.Sel.Name, ok
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if p, name, ok := qualified(n); ok && slices.Contains(socketFuncs[p], name) {
				report(n, "uses %s.%s", p, name)
			}
		case *ast.CompositeLit:
			p, name, ok := qualified(n.Type)
			if !ok || p != "net/http" {
				break
			}
			switch {
			case name == "Client" && !hasField(n, "Transport"):
				report(n, "builds an http.Client without a Transport (it would use http.DefaultTransport)")
			case name == "Transport" && !hasField(n, "DialContext"):
				report(n, "builds an http.Transport without a DialContext (it would dial by itself)")
			}
		case *ast.CallExpr:
			// new(http.Client) and new(http.Transport) have no fields.
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "new" && len(n.Args) == 1 {
				if p, name, ok := qualified(n.Args[0]); ok && p == "net/http" && (name == "Client" || name == "Transport") {
					report(n, "builds a zero http.%s (it would dial by itself)", name)
				}
			}
		}
		return true
	})
	return out
}

// hasField reports whether the composite literal sets field by name.
func hasField(lit *ast.CompositeLit, field string) bool {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
				return true
			}
		}
	}
	return false
}

// TestSocketUses checks the detector itself on small sources.
func TestSocketUses(t *testing.T) {
	const mod = "example.com/m"
	tests := []struct {
		name, src string
		want      []string // substrings of the findings, in order; none: clean
	}{
		{"net.Dial", `import "net"
func f() { net.Dial("tcp", "h:1") }`, []string{"3: uses net.Dial"}},
		{"renamed import", `import stdnet "net"
func f() { stdnet.DialTimeout("tcp", "h:1", 0) }`, []string{"3: uses net.DialTimeout"}},
		{"net.Dialer literal and method", `import "net"
func f() { (&net.Dialer{}).DialContext(nil, "tcp", "h:1") }`, []string{"uses net.Dialer"}},
		{"listeners", `import "net"
func f() { net.Listen("tcp", ":0"); net.ListenPacket("udp", ":0"); net.FileConn(nil) }`,
			[]string{"uses net.Listen", "uses net.ListenPacket", "uses net.FileConn"}},
		{"dns", `import "net"
func f() { net.LookupHost("h") }`, []string{"uses net.LookupHost"}},
		{"tls", `import (
	"crypto/tls"
	t2 "crypto/tls"
)
func f() { tls.Client(nil, nil); t2.Server(nil, nil); tls.Dial("tcp", "h:1", nil) }`,
			[]string{"6: uses crypto/tls.Client", "6: uses crypto/tls.Server", "6: uses crypto/tls.Dial"}},
		{"http helpers", `import "net/http"
func f() { http.Get("u"); _ = http.DefaultClient; _ = http.DefaultTransport.(*http.Transport).Clone() }`,
			[]string{"uses net/http.Get", "uses net/http.DefaultClient", "uses net/http.DefaultTransport"}},
		{"http.Client without Transport", `import "net/http"
func f() { _ = &http.Client{CheckRedirect: nil}; _ = new(http.Client) }`,
			[]string{"http.Client without a Transport", "zero http.Client"}},
		{"http.Transport without DialContext", `import "net/http"
func f() { _ = &http.Transport{DisableCompression: true} }`, []string{"http.Transport without a DialContext"}},
		{"http.Transport dialing through our Dialer", `import (
	"context"
	"net"
	"net/http"
)
func f(d interface{ Dial(context.Context, string, string, int) (net.Conn, error) }) *http.Client {
	t := &http.Transport{DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return d.Dial(ctx, "http", host, 80)
	}}
	return &http.Client{Transport: t}
}`, nil},
		{"harmless net and tls use", `import (
	"crypto/tls"
	"net"
	"net/textproto"
)
func f(c net.Conn) (*tls.Config, *textproto.Conn, net.Error) {
	_ = net.JoinHostPort("h", "1")
	return &tls.Config{MinVersion: tls.VersionTLS12}, textproto.NewConn(c), nil
}`, nil},
		{"textproto and smtp", `import (
	"net/smtp"
	"net/textproto"
)
func f() { textproto.Dial("tcp", "h:1"); smtp.SendMail("h:25", nil, "", nil, nil) }`,
			[]string{"uses net/textproto.Dial", "uses net/smtp.SendMail"}},
		{"syscall socket", `import "syscall"
func f() { syscall.Socket(0, 0, 0); syscall.SetsockoptInt(0, 0, 0, 1) }`, []string{"uses syscall.Socket"}},
		{"dot import", `import . "net"
func f() { Dial("tcp", "h:1") }`, []string{"dot-imports net"}},
		{"blank import", `import _ "net/http"`, nil},
		{"integration import", `import "example.com/m/integration/testbed"
var _ = testbed.Host`, []string{"imports example.com/m/integration/testbed"}},
		{"a look-alike module is not integration", `import "example.com/m/integrationx"
var _ = integrationx.X`, nil},
		{"bench import", `import "example.com/m/bench/cmd/limit"
var _ = limit.X`, []string{"imports example.com/m/bench/cmd/limit"}},
		{"in-test agent import", `import "example.com/m/transport/sshagenttest"
var _ = sshagenttest.Serve`, []string{"imports example.com/m/transport/sshagenttest"}},
	}
	for _, tt := range tests {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package x\n"+tt.src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := socketUses(fset, f, mod)
		if len(got) != len(tt.want) {
			t.Errorf("%s: findings %q, want %d matching %q", tt.name, got, len(tt.want), tt.want)
			continue
		}
		for i, w := range tt.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: finding %q, want one with %q", tt.name, got[i], w)
			}
		}
	}
}
