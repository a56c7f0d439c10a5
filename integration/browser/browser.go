// Package browser drives a real headless Chromium for urlget's integration
// tests: Debian's chromium-headless-shell or chromium, started per test with
// a fresh profile and spoken to over the DevTools protocol through chromedp.
// The tests see what a person's browser sees of a page (the DOM after
// parsing, links resolved against the page, forms submitted by typing and
// pressing Enter), which a Go HTML parser would only imitate.
//
// The browser reaches nothing beyond the loopback interface: every host name
// but 127.0.0.1 and localhost resolves to nothing, and every request to any
// other address goes to a proxy inside this package that refuses it and
// records what was asked (see Browser.Outside).
//
// A test that cannot find the browser is skipped, or fails when the CI
// environment variable is true (testbed.InCI): a CI machine without the
// browser is a broken CI machine, as one without the test servers is.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// EnvBinary names an environment variable that, when set, is the browser
// binary to use instead of searching Binaries.
const EnvBinary = "URLGET_CHROMIUM"

// Binaries are the browser binaries tried in order: Debian's packages
// chromium-headless-shell and chromium, by name on PATH and by the path
// where Debian installs the real binary (the /usr/bin names are wrapper
// scripts).
var Binaries = []string{
	"chromium-headless-shell",
	"chromium",
	"/usr/lib/chromium/chromium-headless-shell",
	"/usr/lib/chromium/chromium",
}

// Timeout bounds each step (a load, a click and the load it causes, a
// query): a page that never finishes fails the test instead of hanging it.
var Timeout = 20 * time.Second

// Find returns the path of the browser binary: $URLGET_CHROMIUM when set,
// else the first of Binaries found.
func Find() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvBinary, p, err)
		}
		return path, nil
	}
	for _, b := range Binaries {
		if p, err := exec.LookPath(b); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no headless Chromium found (tried %s; install Debian's chromium-headless-shell, or set %s)", strings.Join(Binaries, ", "), EnvBinary)
}

// Version returns what the binary at path says its version is, such as
// "Chromium 156.0.8078.108".
func Version(path string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Browser is one tab of a headless Chromium, bound to a test: its methods
// fail the test on an error. Every method that loads a page forgets what the
// previous page did (ScriptEvidence, Blocked).
type Browser struct {
	t         testing.TB
	ctx       context.Context
	out       *proxy
	downloads string // where the tab saves what it downloads

	mu       sync.Mutex
	evidence []string // signs that a script of the page ran
	blocked  []string // the browser's own reports of scripts it refused
}

// Start starts a headless Chromium for t with a fresh profile in a
// temporary directory and returns its first tab. The browser is stopped
// when t ends. Without a browser binary the test is skipped, or fails in CI.
func Start(t testing.TB) *Browser {
	t.Helper()
	path, err := Find()
	if err != nil {
		if testbed.InCI() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	out, err := newProxy()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(out.close)
	stderr := &tail{max: 16 << 10}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.DisableGPU,
		chromedp.WindowSize(1024, 768),
		// No network beyond loopback: names other than these resolve to
		// nothing without a DNS query, and requests to any other
		// address (an IP literal needs no resolving) go to out, which
		// refuses them. Chromium sends loopback requests direct.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"),
		chromedp.ProxyServer("http://"+out.addr),
		// Keep every frame of a page in the tab's own renderer, so the
		// listener below sees the scripts of iframes too.
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-pings", true),
		chromedp.CombinedOutput(stderr),
	)
	if !strings.Contains(filepath.Base(path), "headless-shell") {
		// The full browser's own headless mode; the shell is headless
		// whatever the flag says.
		opts = append(opts, chromedp.Flag("headless", "new"))
	}
	if os.Geteuid() == 0 {
		// Chromium refuses to start its sandbox as root, which the
		// tests are in CI; the pages it loads come from this machine's
		// own test servers.
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	b := newTab(t, actx, out)
	// A browser that never answers ends the allocator, which ends the
	// wait for it.
	watch := startWatch(t)
	stop := context.AfterFunc(watch, acancel)
	err = b.do()
	stop()
	if err != nil && watch.Err() != nil {
		err = fmt.Errorf("no answer within %v: %w", Timeout, err)
	}
	if err != nil {
		t.Fatalf("starting %s: %v\nbrowser output:\n%s", path, err, stderr)
	}
	t.Cleanup(func() {
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("browser output (last %d bytes):\n%s", stderr.max, stderr)
		}
	})
	return b
}

// startWatch returns a context that ends after Timeout, or with t.
func startWatch(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	t.Cleanup(cancel)
	return ctx
}

// Tab opens another tab of the same browser, bound to t (a subtest's, for
// example); it is closed when t ends.
func (b *Browser) Tab(t testing.TB) *Browser {
	t.Helper()
	nb := newTab(t, b.ctx, b.out)
	if err := nb.do(); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return nb
}

// newTab makes a tab context under parent (an allocator's context for the
// first tab, another tab's for the next) whose listener gathers the signs
// of page scripts from the tab's first event on.
func newTab(t testing.TB, parent context.Context, out *proxy) *Browser {
	b := &Browser{t: t, out: out, downloads: t.TempDir()}
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithListener(b.listen))
	t.Cleanup(cancel)
	b.ctx = ctx
	return b
}

// do attaches the tab and turns on the debugger domain, whose scriptParsed
// events report every script the page compiles, inline ones and event
// handler attributes included.
//
// The first action runs on the tab's own context, not one with a timeout:
// chromedp ties the browser process (and the tab) to the context of the
// first action, so a timeout's end would kill them. Start bounds the
// browser's start apart.
func (b *Browser) do() error {
	if err := chromedp.Do(b.ctx); err != nil {
		return err
	}
	ctx, cancel := b.step()
	defer cancel()
	if _, err := chromedp.Call(ctx, debugger.Enable, debugger.EnableParams{}); err != nil {
		return err
	}
	// Downloads go to the test's own directory, each under its GUID,
	// with events saying when one is complete (see Download).
	events := true
	_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: b.downloads, EventsEnabled: &events})
	return err
}

// listen runs in the tab's event loop: it must return fast and send no
// command.
func (b *Browser) listen(ev any) {
	var s string
	switch ev := ev.(type) {
	case *debugger.EventScriptParsed:
		// The expressions this package evaluates have no URL; every
		// script of the page has the page's or its own.
		if ev.URL == "" {
			return
		}
		s = "script parsed from " + ev.URL
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range ev.Args {
			args = append(args, string(a.Value))
		}
		s = "console." + string(ev.Type) + "(" + strings.Join(args, ", ") + ")"
	case *runtime.EventExceptionThrown:
		s = "exception: " + ev.ExceptionDetails.Text
		if e := ev.ExceptionDetails.Exception; e != nil {
			s += " " + e.Description
		}
	case *log.EventEntryAdded:
		if strings.HasPrefix(ev.Entry.Text, "Blocked script execution") {
			b.mu.Lock()
			b.blocked = append(b.blocked, ev.Entry.Text)
			b.mu.Unlock()
		}
		return
	default:
		return
	}
	b.mu.Lock()
	b.evidence = append(b.evidence, s)
	b.mu.Unlock()
}

// forget clears what the previous page did, before a new one loads.
func (b *Browser) forget() {
	b.mu.Lock()
	b.evidence, b.blocked = nil, nil
	b.mu.Unlock()
}

func (b *Browser) step() (context.Context, context.CancelFunc) {
	return context.WithTimeout(b.ctx, Timeout)
}

// Load loads url in the tab and returns the HTTP status of its document,
// or an error when it did not load (an unreachable host, a refused request).
func (b *Browser) Load(url string) (int, error) {
	b.forget()
	ctx, cancel := b.step()
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	if err != nil {
		return 0, fmt.Errorf("loading %s: %w", url, err)
	}
	return int(resp.Status), nil
}

// Open loads url and returns the HTTP status of its document; a page that
// does not load fails the test.
func (b *Browser) Open(url string) int {
	b.t.Helper()
	st, err := b.Load(url)
	if err != nil {
		b.t.Fatal(err)
	}
	return st
}

// run runs the action a within Timeout and returns its value; an error
// fails the test with what was being done, and where.
func run[T any](b *Browser, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := b.step()
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.t.Fatalf("%s on %s: %v", what, b.location(), err)
	}
	return v
}

// URL returns the address of the page shown.
func (b *Browser) URL() string {
	b.t.Helper()
	return run(b, "location", chromedp.Location())
}

// Title returns the title of the page shown.
func (b *Browser) Title() string {
	b.t.Helper()
	return run(b, "title", chromedp.Title())
}

// Text returns the text a person sees in the first element that the CSS
// selector sel matches, waiting up to Timeout for one to appear.
//
// It reads the element by script, not through a DOM node id: a node id
// taken while Chromium is still putting a plain-text document into its
// page can be gone by the time its text is asked for ("No node with
// given id found", seen in CI). Until the element exists (at most
// Timeout) it asks again.
func (b *Browser) Text(sel string) string {
	b.t.Helper()
	js := fmt.Sprintf(`(() => {
		const e = document.querySelector(%s);
		return e === null ? null : (e instanceof HTMLElement ? e.innerText : e.textContent);
	})()`, jsString(sel))
	var text *string
	if !await.Within(Timeout, func() bool {
		text = run(b, fmt.Sprintf("text of %q", sel), chromedp.Evaluate[*string](js))
		return text != nil
	}) {
		b.t.Fatalf("no element %q on %s within %v", sel, b.location(), Timeout)
	}
	return *text
}

// Count returns how many elements the CSS selector sel matches now.
func (b *Browser) Count(sel string) int {
	b.t.Helper()
	return len(b.Texts(sel))
}

// Texts returns the text a person sees in each element that the CSS
// selector sel matches now, in document order (none: an empty slice).
func (b *Browser) Texts(sel string) []string {
	b.t.Helper()
	var out []string
	for _, l := range b.Links(sel) {
		out = append(out, l.Text)
	}
	return out
}

// A Link is an element as a person meets it: its visible text and, for a
// link, where it leads.
type Link struct {
	// Text is the element's rendered text (innerText).
	Text string `json:"text"`
	// Href is the element's href resolved against the page, as the
	// browser would follow it; empty for an element that is no link.
	Href string `json:"href"`
}

// Links returns the text and resolved href of each element that the CSS
// selector sel matches now, in document order.
func (b *Browser) Links(sel string) []Link {
	b.t.Helper()
	js := fmt.Sprintf(`Array.from(document.querySelectorAll(%s), e => ({
		text: e instanceof HTMLElement ? e.innerText : e.textContent,
		href: typeof e.href === "string" ? e.href : "",
	}))`, jsString(sel))
	return run(b, fmt.Sprintf("elements %q", sel), chromedp.Evaluate[[]Link](js))
}

// navigate runs a, which makes the tab load a page (a click, a form sent),
// waits for that page to load within Timeout and returns its HTTP status;
// an error fails the test with what was being done, and where.
func (b *Browser) navigate(what string, a chromedp.Action[chromedp.Void]) int {
	b.t.Helper()
	from := b.location()
	b.forget()
	ctx, cancel := b.step()
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, a)
	if err != nil {
		b.t.Fatalf("%s on %s: %v", what, from, err)
	}
	return int(resp.Status)
}

// Click clicks the first element that the CSS selector sel matches, as a
// mouse would, waits for the page it leads to to load and returns that
// page's HTTP status.
func (b *Browser) Click(sel string) int {
	b.t.Helper()
	return b.navigate(fmt.Sprintf("clicking %q", sel), chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// ClickLink clicks the first link whose text a person sees is text (spaces
// around it aside), waits for the page it leads to to load and returns
// that page's HTTP status.
func (b *Browser) ClickLink(text string) int {
	b.t.Helper()
	sel := chromedp.JSPath(fmt.Sprintf(`Array.from(document.links).find(a => a.innerText.trim() === %s)`, jsString(text)))
	return b.navigate(fmt.Sprintf("clicking the link %q", text), chromedp.Click(sel, chromedp.NodeVisible))
}

// ClickHref clicks the first link that leads to href (resolved against the
// page, as Links gives it), waits for the page to load and returns its
// HTTP status.
func (b *Browser) ClickHref(href string) int {
	b.t.Helper()
	sel := chromedp.JSPath(fmt.Sprintf(`Array.from(document.links).find(a => a.href === %s)`, jsString(href)))
	return b.navigate("clicking the link to "+href, chromedp.Click(sel, chromedp.NodeVisible))
}

// Download clicks the first link whose text a person sees is text, which
// the browser saves as a file instead of showing it (a binary document),
// waits for the download to complete and returns the saved file's path.
func (b *Browser) Download(text string) string {
	b.t.Helper()
	from := b.location()
	ctx, cancel := b.step()
	defer cancel()
	progress := chromedp.Events(ctx, cdpbrowser.DownloadProgress) // subscribed before the click
	sel := chromedp.JSPath(fmt.Sprintf(`Array.from(document.links).find(a => a.innerText.trim() === %s)`, jsString(text)))
	if err := chromedp.Do(ctx, chromedp.Click(sel, chromedp.NodeVisible)); err != nil {
		b.t.Fatalf("clicking the link %q on %s: %v", text, from, err)
	}
	for ev, err := range progress {
		if err != nil {
			b.t.Fatalf("downloading %q from %s: %v", text, from, err)
		}
		switch ev.State {
		case cdpbrowser.DownloadProgressStateCompleted:
			return filepath.Join(b.downloads, ev.GUID)
		case cdpbrowser.DownloadProgressStateCanceled:
			b.t.Fatalf("downloading %q from %s: canceled after %v bytes", text, from, ev.ReceivedBytes)
		}
	}
	b.t.Fatalf("downloading %q from %s: no end", text, from)
	return ""
}

// SubmitForm types value into the field named field of the form that the
// CSS selector form matches, presses Enter as a person would, waits for
// the result to load and returns its HTTP status.
func (b *Browser) SubmitForm(form, field, value string) int {
	b.t.Helper()
	sel := chromedp.CSS(fmt.Sprintf("%s [name=%s]", form, jsString(field)))
	return b.navigate(fmt.Sprintf("submitting %q with %s=%q", form, field, value),
		chromedp.SendKeys(sel, value+kb.Enter, chromedp.NodeVisible))
}

// Fill sets the value of the form field that the CSS selector sel matches
// (an input, a textarea, the option of a select) to value, as a person
// who cleared it and typed or chose value leaves it, without sending the
// form.
func (b *Browser) Fill(sel, value string) {
	b.t.Helper()
	run(b, fmt.Sprintf("filling %q with %q", sel, value), chromedp.SetValue(chromedp.CSS(sel), value, chromedp.NodeVisible))
}

// Toggle clicks the element that the CSS selector sel matches (a
// checkbox), as a mouse would, where no page loads.
func (b *Browser) Toggle(sel string) {
	b.t.Helper()
	run(b, fmt.Sprintf("clicking %q", sel), chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// Screenshot writes a PNG of the whole page shown to path.
func (b *Browser) Screenshot(path string) {
	b.t.Helper()
	png := run(b, "screenshot", chromedp.FullScreenshot(100))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// Global returns typeof window[name] in the page shown: "undefined" for a
// name no script set.
func (b *Browser) Global(name string) string {
	b.t.Helper()
	return run(b, "reading window."+name, chromedp.Evaluate[string]("typeof window["+jsString(name)+"]"))
}

// ScriptEvidence returns the signs, since the page shown began to load,
// that a script of the page ran: each script the page compiled (inline,
// external or an event handler attribute), each console call and each
// uncaught exception. None means no script ran.
func (b *Browser) ScriptEvidence() []string {
	b.settle()
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.evidence...)
}

// Blocked returns the browser's reports, since the page shown began to
// load, of scripts it refused to run (a sandboxed document's).
func (b *Browser) Blocked() []string {
	b.settle()
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.blocked...)
}

// settle makes sure every event the browser sent about the page shown has
// reached the listener: the tab's loop hands events to it in order, before
// the reply to a command sent after them.
func (b *Browser) settle() {
	b.t.Helper()
	run(b, "settling", chromedp.Evaluate[chromedp.Void]("0"))
}

// NoScriptRan fails the test when a script of the page shown ran: when
// ScriptEvidence has anything, or when any of globals (names a hostile
// page's script would set, such as "__pwned") is defined on window.
func (b *Browser) NoScriptRan(globals ...string) {
	b.t.Helper()
	if ev := b.ScriptEvidence(); len(ev) > 0 {
		b.t.Errorf("a script ran on %s:\n\t%s", b.location(), strings.Join(ev, "\n\t"))
	}
	for _, g := range globals {
		if got := b.Global(g); got != "undefined" {
			b.t.Errorf("window.%s on %s is a %s, so a script set it", g, b.location(), got)
		}
	}
}

// Outside returns the requests the browser tried to send beyond the
// loopback interface (refused), as "METHOD URL" or "CONNECT host:port".
func (b *Browser) Outside() []string {
	return b.out.seen()
}

// location is the page's address for messages; it never fails the test.
func (b *Browser) location() string {
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
	defer cancel()
	u, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		return "(unknown page)"
	}
	return u
}

// jsString returns s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// proxy is the browser's HTTP proxy, which only requests to addresses
// beyond loopback reach: it refuses each with 403 and records it.
type proxy struct {
	ln   net.Listener
	addr string
	srv  *http.Server

	mu   sync.Mutex
	reqs []string
}

// maxSeen bounds how many refused requests a proxy records.
const maxSeen = 1000

func newProxy() (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{ln: ln, addr: ln.Addr().String()}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	what := r.Method + " " + r.RequestURI
	p.mu.Lock()
	if len(p.reqs) < maxSeen {
		p.reqs = append(p.reqs, what)
	}
	p.mu.Unlock()
	w.Header().Set("Connection", "close")
	http.Error(w, "urlget's test browser reaches nothing beyond 127.0.0.1", http.StatusForbidden)
}

func (p *proxy) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.reqs...)
}

func (p *proxy) close() { p.srv.Close() }

// tail keeps the last max bytes written to it: the browser's output, for a
// failed test's log, in bounded memory.
type tail struct {
	max int
	mu  sync.Mutex
	buf []byte
}

func (w *tail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(p), nil
}

// Len returns how many bytes are kept.
func (w *tail) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.buf)
}

// String returns the kept bytes, from the first whole line.
func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf
	if len(b) == w.max {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}

var _ io.Writer = (*tail)(nil)
