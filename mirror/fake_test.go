package mirror

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parseTree parses a URL of the fake "tree" scheme: tree://host/path.
func parseTree(raw string) schemes.Locator {
	loc, err := schemestest.ParseLoc(raw)
	if err != nil {
		panic(err)
	}
	return loc
}

// node is one remote entry of the fake tree: a directory lists its
// children (in order), a file has data. Name overrides the entry's Name
// (for hostile names); url overrides its URL.
type node struct {
	name     string
	dir      bool
	link     bool
	data     string
	noSize   bool // list the file with no size
	mod      time.Time
	url      string // the entry's URL, when not path+name
	children []*node
	page     string // a directory's page, when the scheme has pages (else one is made up)
}

// treeHandler serves a fake tree: paths are tree://h/a/b/ for
// directories, tree://h/a/b/f for files. Its maps are keyed by the URL's
// path as written, without the leading "/" ("a/b/", "a/b/f").
type treeHandler struct {
	mu     sync.Mutex
	root   *node
	fetch  map[string]int  // fetches per path
	lists  map[string]int  // listings per path
	failAt map[string]int  // a listing of this path fails after N entries
	cut    map[string]int  // a fetch of this path sends N bytes, then fails (once)
	raw    map[string]bool // a listing of this path has a line no parser understood
	asks   map[string]bool // this path's server asks for input or an identity (schemes.Error.Asks)
	caps   schemes.Caps    // capabilities claimed beyond the file system's (Crawls, Pages)
}

func newTree(root *node) *treeHandler {
	return &treeHandler{root: root, fetch: map[string]int{}, lists: map[string]int{}, failAt: map[string]int{},
		cut: map[string]int{}, raw: map[string]bool{}, asks: map[string]bool{}}
}

func (h *treeHandler) client() *fetch.Client {
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "tree", Handler: h, Caps: schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | h.caps,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return schemestest.Loc{U: u}, nil }})
	return &fetch.Client{Registry: r, RetryDelay: time.Millisecond}
}

// find walks the tree along path's segments.
func (h *treeHandler) find(path string) *node {
	n := h.root
	for _, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		if seg == "" {
			continue
		}
		seg, _ = url.PathUnescape(seg)
		var next *node
		for _, c := range n.children {
			if c.name == seg {
				next = c
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

func notFound(req *schemes.Request) error {
	return &schemes.Error{Scheme: "tree", Kind: schemes.KindNotFound, URL: req.URL.Redacted(), Msg: "no such entry", Err: fs.ErrNotExist}
}

func (h *treeHandler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := req.URL.Generic().Path
	h.fetch[p]++
	if h.asks[p] {
		return nil, asks(req)
	}
	n := h.find(p)
	if n != nil && n.link { // a server follows a link it is asked to send
		n = h.find(path.Join(path.Dir(p), n.data))
	}
	if n == nil || n.dir {
		return nil, notFound(req)
	}
	off := req.Offset
	if ok, _ := req.MayResume(schemes.Remote{ModTime: n.mod, Precision: time.Second, Size: int64(len(n.data))}); !ok {
		off = 0
	}
	var body io.Reader = strings.NewReader(n.data[off:])
	if c, ok := h.cut[p]; ok {
		delete(h.cut, p)
		body = io.MultiReader(strings.NewReader(n.data[off:][:c]), errReader{})
	}
	size := int64(len(n.data))
	if n.noSize {
		size = -1
	}
	return &schemes.Response{Body: io.NopCloser(body), Offset: off, Size: size, ModTime: n.mod, Kind: schemes.EntryFile}, nil
}

// asks is the failure of a URL whose server asks for something of its
// own (a gemini 1x or 6x).
func asks(req *schemes.Request) error {
	return &schemes.Error{Scheme: "tree", Kind: schemes.KindPermission, URL: req.URL.Redacted(), Msg: "who are you?", Asks: true}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) {
	return 0, &schemes.Error{Scheme: "tree", Phase: "read", Kind: schemes.KindConnect, Retryable: false, Msg: "connection reset"}
}

func (h *treeHandler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := req.URL.Generic().Path
	h.lists[p]++
	if h.asks[p] {
		return nil, asks(req)
	}
	n := h.find(p)
	if n == nil || !n.dir {
		return nil, notFound(req)
	}
	base := strings.TrimSuffix(req.URL.String(), "/") + "/"
	var entries []schemes.Entry
	for _, c := range n.children {
		e := schemes.Entry{Name: c.name, Kind: schemes.EntryFile, Size: int64(len(c.data)), ModTime: c.mod, Precision: time.Second}
		if safe, ok := schemes.SafeName(c.name); !ok || safe != c.name {
			e.Name, e.Title = "", c.name
		}
		u := base + url.PathEscape(c.name)
		switch {
		case c.dir:
			e.Kind, e.Size, u = schemes.EntryDir, -1, u+"/"
		case c.link:
			e.Kind, e.Target = schemes.EntryLink, c.data
		}
		if c.noSize {
			e.Size, e.ModTime, e.Precision = -1, time.Time{}, 0
		}
		if c.url != "" {
			u = c.url
		}
		e.Locator = parseTree(u)
		entries = append(entries, e)
	}
	if h.raw[p] {
		entries = append(entries, schemes.Entry{Kind: schemes.EntryRaw, Title: "?garbage line"})
	}
	failAt, fails := h.failAt[p]
	// With Pages, the page goes to req.Page as a handler reads it: a
	// part before the first entry, a line for each, the rest at the end.
	page := []string{"", ""}
	if h.caps.Has(schemes.Pages) && req.Page != nil {
		page = strings.SplitAfterN(n.pageText(), "\n", 2)
		if len(page) == 1 {
			page = append(page, "")
		}
		io.WriteString(req.Page, page[0])
	}
	i := 0
	next := func() (schemes.Entry, error) {
		if fails && i == failAt {
			return schemes.Entry{}, &schemes.Error{Scheme: "tree", Kind: schemes.KindConnect, Msg: "listing connection reset"}
		}
		if i == len(entries) {
			if req.Page != nil && page[1] != "" {
				io.WriteString(req.Page, page[1])
				page[1] = ""
			}
			return schemes.Entry{}, io.EOF
		}
		i++
		return entries[i-1], nil
	}
	return &schemes.Response{Listing: schemes.ListingFunc(next, nil), Kind: schemes.EntryDir, Size: -1}, nil
}

// pageText is the page of the directory n: its own, or one naming its
// children, a line each.
func (n *node) pageText() string {
	if n.page != "" {
		return n.page
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<h1>index of %s</h1>\n", n.name)
	for _, c := range n.children {
		fmt.Fprintf(&b, "<a>%s</a>\n", c.name)
	}
	b.WriteString("</html>\n")
	return b.String()
}

// fetches is how many times path was fetched.
func (h *treeHandler) fetches(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fetch[path]
}

// totalFetches is every fetch so far.
func (h *treeHandler) totalFetches() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.fetch {
		n += c
	}
	return n
}

// events collects a run's events.
type events struct {
	mu  sync.Mutex
	all []Event
}

func (ev *events) add(e Event) {
	ev.mu.Lock()
	ev.all = append(ev.all, e)
	ev.mu.Unlock()
}

// find returns the events of type t about path.
func (ev *events) find(t EventType, path string) []Event {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var out []Event
	for _, e := range ev.all {
		if e.Type == t && e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

// paths is the paths of the events of type t, sorted.
func (ev *events) paths(t EventType) []string {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var out []string
	for _, e := range ev.all {
		if e.Type == t {
			out = append(out, e.Path)
		}
	}
	slices.Sort(out)
	return out
}

func (ev *events) String() string {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var b strings.Builder
	for _, e := range ev.all {
		fmt.Fprintf(&b, "%s %q %s %v\n", e.Type, e.Path, e.Reason, e.Err)
	}
	return b.String()
}

func (h *treeHandler) Explain(req *schemes.Request) ([]string, error) {
	return []string{"GET " + req.URL.Generic().Path}, nil
}

// Stat describes a path of the tree, following nothing (links are
// resolved by their URL, which the test builds).
func (h *treeHandler) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.find(req.URL.Generic().Path)
	if n == nil {
		return nil, notFound(req)
	}
	if n.dir {
		return &schemes.Response{Kind: schemes.EntryDir, Size: -1}, nil
	}
	return &schemes.Response{Kind: schemes.EntryFile, Size: int64(len(n.data)), ModTime: n.mod, Precision: time.Second}, nil
}
