package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/urlget/urlget/schemes"
)

// fsTempTree makes a local tree for the FS tests and returns its path
// and its file: URL: files at several depths, an empty file and an empty
// directory, names with a space, "%" and "#", a link to a file and one
// to a directory, and a name with "\" (a valid fs path element that an
// FS leaves out).
func fsTempTree(t *testing.T) (dir, url string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"README.txt":             "top\n",
		"a/one.txt":              "one\n",
		"a/b/c/deep.txt":         "deep\n",
		"a/empty.txt":            "",
		"odd/with space.txt":     "space\n",
		"odd/per%20cent.txt":     "percent\n",
		"odd/hash#mark":          "hash\n",
		"bin/bytes.dat":          string(fsBytes(5000)),
		`odd/back\slash.txt`:     "left out\n",
		"empty/.keep-not-listed": "",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(dir, "empty", ".keep-not-listed"))
	if err := os.Symlink("a/one.txt", filepath.Join(dir, "link-to-file")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "link-to-dir")); err != nil {
		t.Fatal(err)
	}
	return dir, "file://" + filepath.ToSlash(dir) + "/"
}

// fsTempFS is the FS of a new fsTempTree, and the tree's path.
func fsTempFS(t *testing.T) (string, *FS) {
	t.Helper()
	dir, url := fsTempTree(t)
	var c Client
	fsys, err := c.FS(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return dir, fsys
}

// fsBytes is n bytes that differ from their neighbours, for seeks.
func fsBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/256)
	}
	return b
}

// fsTempFiles is what fstest must find in fsTempTree's FS.
var fsTempFiles = []string{
	"README.txt", "a/one.txt", "a/b/c/deep.txt", "a/empty.txt", "a/b", "a/b/c",
	"odd/with space.txt", "odd/per%20cent.txt", "odd/hash#mark", "bin/bytes.dat",
	"empty", "link-to-file", "link-to-dir",
}

func TestFSPassesFstestOnAFileTree(t *testing.T) {
	_, fsys := fsTempFS(t)
	if err := fstest.TestFS(fsys, fsTempFiles...); err != nil {
		t.Fatal(err)
	}
}

func TestFSLeavesOutNamesThatAreNoPathElement(t *testing.T) {
	_, fsys := fsTempFS(t)
	got := fsNames(t, fsys, "odd")
	want := []string{"hash#mark", "per%20cent.txt", "with space.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("odd/ = %q, want %q (the name with a backslash left out)", got, want)
	}
	if _, err := fsys.Stat(`odd/back\slash.txt`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf(`Stat of the left-out name: %v, want fs.ErrNotExist`, err)
	}
}

// fsNames is the names ReadDir gives dir.
func fsNames(t *testing.T, fsys fs.ReadDirFS, dir string) []string {
	t.Helper()
	list, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

func TestFSErrors(t *testing.T) {
	_, fsys := fsTempFS(t)
	calls := map[string]func(string) error{
		"Open":     func(n string) error { f, err := fsys.Open(n); closeIf(f); return err },
		"Stat":     func(n string) error { _, err := fsys.Stat(n); return err },
		"ReadDir":  func(n string) error { _, err := fsys.ReadDir(n); return err },
		"ReadFile": func(n string) error { _, err := fsys.ReadFile(n); return err },
	}
	tests := []struct {
		name string
		want error
	}{
		{"missing.txt", fs.ErrNotExist},
		{"a/missing/deep.txt", fs.ErrNotExist},
		{"README.txt/below", fs.ErrNotExist}, // a file is no directory
		{"/README.txt", fs.ErrInvalid},
		{"a/../README.txt", fs.ErrInvalid},
		{"a/", fs.ErrInvalid},
		{"", fs.ErrInvalid},
	}
	for _, tt := range tests {
		for call, f := range calls {
			err := f(tt.name)
			var pe *fs.PathError
			if !errors.As(err, &pe) || !errors.Is(err, tt.want) {
				t.Errorf("%s(%q) = %v, want a *fs.PathError of %v", call, tt.name, err, tt.want)
			} else if pe.Path != tt.name {
				t.Errorf("%s(%q): PathError.Path = %q", call, tt.name, pe.Path)
			}
		}
	}
	// A directory read as a file, a file listed as a directory.
	if _, err := fsys.ReadFile("a"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("ReadFile(a) = %v, want fs.ErrInvalid", err)
	}
	if _, err := fsys.ReadDir("README.txt"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("ReadDir(README.txt) = %v, want fs.ErrInvalid", err)
	}
	if _, err := fsys.ReadLink("README.txt"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("ReadLink(README.txt) = %v, want fs.ErrInvalid", err)
	}
	if target, err := fsys.ReadLink("link-to-file"); target != "a/one.txt" || err != nil {
		t.Errorf("ReadLink(link-to-file) = %q, %v", target, err)
	}
}

func closeIf(f fs.File) {
	if f != nil {
		f.Close()
	}
}

func TestFSRefusesWhatCannotBeListed(t *testing.T) {
	var c Client
	for _, url := range []string{"mailto:someone@example.org", "telnet://127.0.0.1/"} {
		_, err := c.FS(context.Background(), url)
		if schemes.KindOf(err) != schemes.KindUnsupported || !strings.Contains(err.Error(), "cannot be listed") {
			t.Errorf("FS(%s) = %v, want KindUnsupported: cannot be listed", url, err)
		}
	}
	dir, _ := fsTempTree(t)
	_, err := c.FS(context.Background(), "file://"+filepath.ToSlash(dir)+"/missing/")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("FS of a missing directory = %v, want fs.ErrNotExist", err)
	}
}

func TestFSSeeksAndServesThroughHTTPFileServer(t *testing.T) {
	_, fsys := fsTempFS(t)
	want := fsBytes(5000)
	srv := http.FileServer(http.FS(fsys))
	tests := []struct {
		rng    string
		status int
		body   []byte
	}{
		{"", http.StatusOK, want},
		{"bytes=4000-4099", http.StatusPartialContent, want[4000:4100]},
		{"bytes=-10", http.StatusPartialContent, want[4990:]},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("GET", "/bin/bytes.dat", nil)
		if tt.rng != "" {
			req.Header.Set("Range", tt.rng)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != tt.status || !bytes.Equal(rec.Body.Bytes(), tt.body) {
			t.Errorf("Range %q: %d, %d bytes; want %d, %d bytes", tt.rng, rec.Code, rec.Body.Len(), tt.status, len(tt.body))
		}
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "/missing", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("a missing name: %d, want 404", rec.Code)
	}
}

func TestFSWalkDirSeesEveryFile(t *testing.T) {
	dir, fsys := fsTempFS(t)
	var got []string
	if err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			got = append(got, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var want []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		if d.Type().IsRegular() && !strings.Contains(rel, `\`) {
			want = append(want, filepath.ToSlash(rel))
		}
		return nil
	})
	if !slices.Equal(got, want) {
		t.Errorf("WalkDir found %q, want %q", got, want)
	}
}

func TestFSCancellingItsContextEndsEveryOperation(t *testing.T) {
	_, url := fsTempTree(t)
	var c Client
	ctx, cancel := context.WithCancel(context.Background())
	fsys, err := c.FS(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	f, err := fsys.Open("README.txt") // the root was listed: no I/O yet
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cancel()
	if _, err := f.Read(make([]byte, 10)); !errors.Is(err, context.Canceled) {
		t.Errorf("Read after cancel = %v, want context.Canceled", err)
	}
	if _, err := fsys.ReadDir("a"); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadDir of an unread directory after cancel = %v, want context.Canceled", err)
	}
}

// fsFakeLoc is the typed value of the fake tree scheme: t://host/path.
type fsFakeLoc struct{ u *schemes.URL }

func (l fsFakeLoc) Generic() *schemes.URL { return l.u }
func (l fsFakeLoc) String() string        { return l.u.String() }
func (l fsFakeLoc) Redacted() string      { return l.u.Redacted() }
func (l fsFakeLoc) Fields() any           { return l.u.Path }
func (l fsFakeLoc) LocalName() string     { return schemes.LastSegmentName(l.u.Path) }

// fsFakeTree serves listings and files by url-path, and fails as told.
type fsFakeTree struct {
	dirs  map[string][]schemes.Entry
	files map[string]string
	fail  map[string]*schemes.Error
	lists int
}

func (h *fsFakeTree) Explain(*schemes.Request) ([]string, error) { return nil, nil }

func (h *fsFakeTree) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	p := req.URL.Generic().Path
	if e := h.fail[p]; e != nil {
		return nil, e
	}
	if body, ok := h.files[p]; ok {
		return &schemes.Response{Body: io.NopCloser(strings.NewReader(body)), Size: int64(len(body))}, nil
	}
	return h.List(ctx, req)
}

func (h *fsFakeTree) List(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	p := req.URL.Generic().Path
	if e := h.fail[p]; e != nil {
		return nil, e
	}
	entries, ok := h.dirs[p]
	if !ok {
		return nil, &schemes.Error{Kind: schemes.KindNotFound, Msg: "no such directory"}
	}
	h.lists++
	return &schemes.Response{Listing: schemes.ListingOf(slices.Clone(entries)), Kind: schemes.EntryDir, Size: -1}, nil
}

// fsFakeClient is a Client of the fake tree h under the scheme t, with caps.
func fsFakeClient(h *fsFakeTree, caps schemes.Caps) *Client {
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "t", Handler: h, Caps: caps,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fsFakeLoc{u}, nil }})
	return &Client{Registry: r}
}

// fsEnt is an entry of the fake tree: kind, name, and URL ("" for none).
func fsEnt(t *testing.T, kind schemes.EntryKind, name, url string) schemes.Entry {
	e := schemes.Entry{Kind: kind, Name: name, Size: -1}
	if url != "" {
		u, err := schemes.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		e.Locator = fsFakeLoc{u}
	}
	return e
}

func TestFSNamesAndKindsOfEntries(t *testing.T) {
	const d = "t://h/d/"
	h := &fsFakeTree{dirs: map[string][]schemes.Entry{"d/": {
		fsEnt(t, schemes.EntryFile, "ok.txt", d+"ok.txt"),
		fsEnt(t, schemes.EntryFile, "ok.txt", d+"other.txt"), // a second of one name: left out
		fsEnt(t, schemes.EntryFile, "", d+"by-url.txt"),      // no Name: the URL's LocalName
		fsEnt(t, schemes.EntryFile, "", d),                   // neither: left out
		fsEnt(t, schemes.EntryFile, "..", d+"x"),
		fsEnt(t, schemes.EntryFile, ".", d+"y"),
		fsEnt(t, schemes.EntryFile, "a/b", d+"z"),
		fsEnt(t, schemes.EntryFile, `a\b`, d+"w"),
		fsEnt(t, schemes.EntryFile, "no-url", ""),
		fsEnt(t, schemes.EntryInfo, "info", d+"info"),
		fsEnt(t, schemes.EntrySearch, "search", d+"search"),
		fsEnt(t, schemes.EntrySession, "telnet", d+"telnet"),
		fsEnt(t, schemes.EntryRaw, "raw", d+"raw"),
		fsEnt(t, schemes.EntryDir, "sub", d+"sub/"),
		fsEnt(t, schemes.EntryUnknown, "nlst-name", d+"nlst-name"),
	}}}
	fsys, err := fsFakeClient(h, schemes.Retrieves|schemes.Lists).FS(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	got := fsNames(t, fsys, ".")
	want := []string{"by-url.txt", "nlst-name", "ok.txt", "sub"}
	if !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	fi, err := fsys.Stat("ok.txt")
	if err != nil || fi.Sys().(schemes.Entry).Locator.String() != d+"ok.txt" {
		t.Errorf("ok.txt is %v, %v; want the first entry of that name", fi, err)
	}
}

func TestFSKeepsOnlyTheChildrenOfACrawledPage(t *testing.T) {
	const d = "t://h/top/d/"
	h := &fsFakeTree{dirs: map[string][]schemes.Entry{"top/d/": {
		fsEnt(t, schemes.EntryDir, "up", "t://h/top/"),
		fsEnt(t, schemes.EntryDir, "self", d),
		fsEnt(t, schemes.EntryFile, "child.txt", d+"child.txt"),
		fsEnt(t, schemes.EntryDir, "sub", d+"sub/"),
		fsEnt(t, schemes.EntryFile, "deeper.txt", d+"sub/deeper.txt"),
		fsEnt(t, schemes.EntryFile, "sibling.txt", "t://h/top/e/sibling.txt"),
		fsEnt(t, schemes.EntryFile, "elsewhere.txt", "t://other/top/d/elsewhere.txt"),
		fsEnt(t, schemes.EntryFile, "dotdot", d+"%2E%2E"),
		fsEnt(t, schemes.EntryFile, "escaped.txt", "t://h/top/%64/escaped.txt"),
	}}}
	for _, tt := range []struct {
		caps schemes.Caps
		want []string
	}{
		{schemes.Retrieves | schemes.Lists | schemes.Crawls, []string{"child.txt", "escaped.txt", "sub"}},
		// A file system's listing names what is in the directory, as it is.
		{schemes.Retrieves | schemes.Lists, []string{"child.txt", "deeper.txt", "dotdot", "elsewhere.txt",
			"escaped.txt", "self", "sibling.txt", "sub", "up"}},
	} {
		fsys, err := fsFakeClient(h, tt.caps).FS(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		if got := fsNames(t, fsys, "."); !slices.Equal(got, tt.want) {
			t.Errorf("caps %v: names %q, want %q", tt.caps, got, tt.want)
		}
	}
}

func TestFSPermissionRefused(t *testing.T) {
	const d = "t://h/"
	h := &fsFakeTree{
		dirs: map[string][]schemes.Entry{"": {
			fsEnt(t, schemes.EntryDir, "locked", d+"locked/"),
			fsEnt(t, schemes.EntryFile, "secret.txt", d+"secret.txt"),
		}},
		fail: map[string]*schemes.Error{
			"locked/":    {Kind: schemes.KindPermission, Code: 550, Msg: "Permission denied"},
			"secret.txt": {Kind: schemes.KindPermission, Code: 550, Msg: "Permission denied"},
		},
	}
	fsys, err := fsFakeClient(h, schemes.Retrieves|schemes.Lists).FS(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.ReadDir("locked"); !errors.Is(err, fs.ErrPermission) || !isPathError(err) {
		t.Errorf("ReadDir(locked) = %v, want a *fs.PathError of fs.ErrPermission", err)
	}
	if _, err := fsys.Open("locked/x"); !errors.Is(err, fs.ErrPermission) || !isPathError(err) {
		t.Errorf("Open(locked/x) = %v, want a *fs.PathError of fs.ErrPermission", err)
	}
	if _, err := fsys.ReadFile("secret.txt"); !errors.Is(err, fs.ErrPermission) || !isPathError(err) {
		t.Errorf("ReadFile(secret.txt) = %v, want a *fs.PathError of fs.ErrPermission", err)
	}
}

func isPathError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe)
}

func TestFSListsEachDirectoryOnceWhileItFits(t *testing.T) {
	const d = "t://h/"
	h := &fsFakeTree{
		dirs: map[string][]schemes.Entry{
			"":     {fsEnt(t, schemes.EntryDir, "sub", d+"sub/")},
			"sub/": {fsEnt(t, schemes.EntryFile, "f.txt", d+"sub/f.txt")},
		},
		files: map[string]string{"sub/f.txt": "f\n"},
	}
	fsys, err := fsFakeClient(h, schemes.Retrieves|schemes.Lists).FS(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if b, err := fsys.ReadFile("sub/f.txt"); string(b) != "f\n" || err != nil {
			t.Fatalf("ReadFile = %q, %v", b, err)
		}
		if _, err := fsys.Stat("sub"); err != nil {
			t.Fatal(err)
		}
	}
	if h.lists != 2 {
		t.Errorf("%d listings for two directories read five times, want 2", h.lists)
	}
}

func TestFSTreeKeepsItsBound(t *testing.T) {
	kids := func(n int) fsKids { return make(fsKids, n) }
	tr := newFSTree()
	tr.store("a", kids(fsCacheEntries/2))
	tr.store("b", kids(fsCacheEntries/3))
	tr.store("huge", kids(fsCacheEntries)) // cannot fit with its own entry: never kept
	tr.store("c", kids(fsCacheEntries/3))  // a goes, the least recently used
	var held []string
	for k := range tr.dirs {
		held = append(held, k)
	}
	slices.Sort(held)
	if !slices.Equal(held, []string{"b", "c"}) || tr.total > fsCacheEntries {
		t.Errorf("held %q (%d entries), want [b c] within %d", held, tr.total, fsCacheEntries)
	}
}

func TestFSInfoOfEntries(t *testing.T) {
	mod := time.Date(2024, 1, 2, 3, 4, 0, 0, time.UTC)
	tests := []struct {
		e    schemes.Entry
		mode fs.FileMode
		size int64
	}{
		{schemes.Entry{Kind: schemes.EntryFile, Size: 43, ModTime: mod}, 0o444, 43},
		{schemes.Entry{Kind: schemes.EntryFile, Size: -1}, 0o444, -1},
		{schemes.Entry{Kind: schemes.EntryUnknown, Size: -1}, 0o444, -1},
		{schemes.Entry{Kind: schemes.EntryDir, Size: 4096, ModTime: mod}, fs.ModeDir | 0o555, 4096},
		{schemes.Entry{Kind: schemes.EntryDir, Size: -1}, fs.ModeDir | 0o555, 0},
		{schemes.Entry{Kind: schemes.EntryLink, Size: 13}, fs.ModeSymlink | 0o777, 13},
	}
	for _, tt := range tests {
		fi := &fsInfo{name: "n", entry: tt.e}
		if fi.Mode() != tt.mode || fi.Size() != tt.size || !fi.ModTime().Equal(tt.e.ModTime) || fi.IsDir() != tt.mode.IsDir() {
			t.Errorf("%v: mode %v size %d time %v, want %v %d", tt.e.Kind, fi.Mode(), fi.Size(), fi.ModTime(), tt.mode, tt.size)
		}
	}
}

// TestFSRootIsADirectory: Stat(".") is a directory named ".".
func TestFSRootIsADirectory(t *testing.T) {
	_, fsys := fsTempFS(t)
	fi, err := fsys.Stat(".")
	if err != nil || !fi.IsDir() || fi.Name() != "." {
		t.Errorf("Stat(.) = %v, %v", fi, err)
	}
}

// TestFSConcurrentUse runs fstest from several goroutines on one FS (run
// it with -race): an FS serves http.FileServer's concurrent requests.
func TestFSConcurrentUse(t *testing.T) {
	_, fsys := fsTempFS(t)
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() { errs <- fstest.TestFS(fsys, fsTempFiles...) }()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
