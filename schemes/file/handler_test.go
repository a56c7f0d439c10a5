package file

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// recTrace records every traced line.
type recTrace struct {
	mu    sync.Mutex
	lines []string
}

func (r *recTrace) add(s string) { r.mu.Lock(); r.lines = append(r.lines, s); r.mu.Unlock() }

func (r *recTrace) Sent(l string)     { r.add("> " + l) }
func (r *recTrace) Received(l string) { r.add("< " + l) }
func (r *recTrace) Info(l string)     { r.add("* " + l) }
func (r *recTrace) Secret(string)     {}

func (r *recTrace) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

func request(t *testing.T, raw string) (*schemes.Request, *recTrace) {
	t.Helper()
	f, err := parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	tr := &recTrace{}
	return &schemes.Request{URL: f, Trace: tr}, tr
}

// fileURL is the file URL of a local path.
func fileURL(p string) string { return "file://" + filepath.ToSlash(p) }

func readAll(t *testing.T, r *schemes.Response) string {
	t.Helper()
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFetchFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a b.txt")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(p, mt, mt)
	h := &Handler{}
	req, _ := request(t, fileURL(dir)+"/a%20b.txt")
	r, err := h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); got != "0123456789" {
		t.Errorf("body %q", got)
	}
	if r.Size != 10 || r.Offset != 0 || r.Name != "a b.txt" || !r.ModTime.Equal(mt) || r.Entries != nil {
		t.Errorf("response %+v", r)
	}

	// Resume.
	req.Offset = 4
	r, err = h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); got != "456789" || r.Offset != 4 || r.Size != 10 {
		t.Errorf("resume: body %q offset %d size %d", got, r.Offset, r.Size)
	}
	// Unchanged since the partial copy (same second): still resumes.
	req.ResumeModTime = mt.Add(300 * time.Millisecond)
	if r, err = h.Fetch(context.Background(), req); err != nil || r.Offset != 4 {
		t.Errorf("resume with same modtime: offset %d err %v", r.Offset, err)
	}
	r.Body.Close()
	// Changed since: everything again, Offset 0.
	req.ResumeModTime = mt.Add(-time.Hour)
	r, err = h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); got != "0123456789" || r.Offset != 0 {
		t.Errorf("changed file: body %q offset %d", got, r.Offset)
	}
	// Offset past the end: the file shrank, send it all.
	req.ResumeModTime, req.Offset = time.Time{}, 11
	if r, err = h.Fetch(context.Background(), req); err != nil || r.Offset != 0 {
		t.Errorf("offset past end: offset %d err %v", r.Offset, err)
	}
	r.Body.Close()
	// Offset at the end: complete, empty body.
	req.Offset = 10
	r, err = h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); got != "" || r.Offset != 10 {
		t.Errorf("offset at end: body %q offset %d", got, r.Offset)
	}
}

func TestFetchLocalhostAndNoSlashes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	for _, raw := range []string{"file://localhost" + dir + "/f", "file:" + dir + "/f"} {
		req, _ := request(t, raw)
		r, err := (&Handler{}).Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := readAll(t, r); got != "x" {
			t.Errorf("%s: body %q", raw, got)
		}
	}
}

func TestFetchDirectory(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("hello"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := os.Symlink("b.txt", filepath.Join(dir, "a-link")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "c\nd"), nil, 0o644)
	h := &Handler{}
	for _, raw := range []string{fileURL(dir), fileURL(dir) + "/"} {
		req, _ := request(t, raw)
		r, err := h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := readAll(t, r), "a-link\nb.txt\nc?d\nsub/\n"; got != want {
			t.Errorf("listing %q, want %q", got, want)
		}
		if r.Name != filepath.Base(dir) || r.Size != int64(len("a-link\nb.txt\nc?d\nsub/\n")) {
			t.Errorf("response %+v", r)
		}
		want := []struct {
			name, target string
			kind         schemes.EntryKind
			size         int64
		}{
			{"a-link", "b.txt", schemes.EntryLink, -1},
			{"b.txt", "", schemes.EntryFile, 5},
			{"c\nd", "", schemes.EntryFile, 0},
			{"sub", "", schemes.EntryDir, -1},
		}
		if len(r.Entries) != len(want) {
			t.Fatalf("entries %+v", r.Entries)
		}
		for i, w := range want {
			e := r.Entries[i]
			if e.Name != w.name || e.Kind != w.kind || e.Size != w.size || e.Target != w.target || e.ModTime.IsZero() {
				t.Errorf("entry %d = %+v, want %+v", i, e, w)
			}
		}
		if got, want := r.Entries[3].URL, fileURL(dir)+"/sub/"; got != want {
			t.Errorf("sub URL %q, want %q", got, want)
		}
		if got, want := r.Entries[2].URL, fileURL(dir)+"/c%0Ad"; got != want {
			t.Errorf("c\\nd URL %q, want %q", got, want)
		}
	}
	req, _ := request(t, fileURL(dir))
	entries, err := h.List(context.Background(), req)
	if err != nil || len(entries) != 4 || entries[0].Name != "a-link" {
		t.Errorf("List = %+v, %v", entries, err)
	}
	// Listing a file is "not a directory".
	req, _ = request(t, fileURL(dir)+"/b.txt")
	if _, err := h.List(context.Background(), req); schemes.KindOf(err) != schemes.KindNotFound {
		t.Errorf("List(file) = %v, want KindNotFound", err)
	}
}

func TestFetchNotFound(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
	for _, p := range []string{"/missing", "/f/under-a-file"} {
		req, _ := request(t, fileURL(dir)+p)
		_, err := (&Handler{}).Fetch(context.Background(), req)
		var e *schemes.Error
		if !errors.As(err, &e) || e.Kind != schemes.KindNotFound || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: err = %#v, want KindNotFound and fs.ErrNotExist", p, err)
		}
		if e != nil && (e.Scheme != "file" || e.URL != fileURL(dir)+p || e.Phase != "open") {
			t.Errorf("%s: error fields %+v", p, e)
		}
	}
}

func TestFetchPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		// root reads any file whatever its mode, so there is no way to
		// provoke EACCES here without another user; the mapping itself is
		// covered by TestFSErrorKinds.
		t.Skip("running as root: permission bits are not enforced")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "secret")
	os.WriteFile(p, []byte("x"), 0o000)
	req, _ := request(t, fileURL(p))
	_, err := (&Handler{}).Fetch(context.Background(), req)
	if schemes.KindOf(err) != schemes.KindPermission || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("err = %v, want KindPermission", err)
	}
}

func TestFSErrorKinds(t *testing.T) {
	f, _ := parse("file:///x")
	for _, c := range []struct {
		err  error
		kind schemes.Kind
	}{
		{&fs.PathError{Op: "open", Path: "/x", Err: fs.ErrPermission}, schemes.KindPermission},
		{&fs.PathError{Op: "open", Path: "/x", Err: fs.ErrNotExist}, schemes.KindNotFound},
		{errors.New("other"), schemes.KindOther},
	} {
		err := fsError(f, "open", c.err)
		if schemes.KindOf(err) != c.kind || !errors.Is(err, c.err) {
			t.Errorf("fsError(%v) = %v, want kind %v", c.err, err, c.kind)
		}
	}
}

func TestFetchCanceled(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("data"), 0o644)
	req, _ := request(t, fileURL(dir)+"/f")
	ctx, cancel := context.WithCancel(context.Background())
	r, err := (&Handler{}).Fetch(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	cancel()
	if _, err := r.Body.Read(make([]byte, 4)); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want canceled", err)
	}
	if _, err := (&Handler{}).Fetch(ctx, req); schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("fetch after cancel: %v", err)
	}
}

func TestFetchRemote(t *testing.T) {
	req, tr := request(t, "file://ftp.example.com/pub/a%20b.txt")
	r, err := (&Handler{}).Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Redirect != "ftp://ftp.example.com/pub/a%20b.txt" {
		t.Errorf("Redirect = %q", r.Redirect)
	}
	if got := readAll(t, r); got != "" {
		t.Errorf("body %q", got)
	}
	if !strings.Contains(tr.String(), "* host \"ftp.example.com\" is not this machine; retrieving ftp://ftp.example.com/pub/a%20b.txt") {
		t.Errorf("trace %q", tr)
	}
	plan, err := (&Handler{}).Explain(req)
	if err != nil || len(plan) != 1 || plan[0] != "redirect ftp://ftp.example.com/pub/a%20b.txt" {
		t.Errorf("Explain = %q, %v", plan, err)
	}

	h := &Handler{NoFTP: true}
	for name, call := range map[string]func() error{
		"Fetch":   func() error { _, err := h.Fetch(context.Background(), req); return err },
		"Explain": func() error { _, err := h.Explain(req); return err },
		"List":    func() error { _, err := h.List(context.Background(), req); return err },
	} {
		err := call()
		var e *schemes.Error
		if !errors.As(err, &e) || e.Kind != schemes.KindUnsupported || e.Kind.ExitCode() != 8 {
			t.Errorf("%s with NoFTP: err = %v, want KindUnsupported", name, err)
			continue
		}
		if name != "List" && !strings.Contains(e.Error(), "--no-file-ftp") {
			t.Errorf("%s with NoFTP: message %q does not name --no-file-ftp", name, e)
		}
	}
}

func TestFetchOwnHostName(t *testing.T) {
	name, err := os.Hostname()
	if err != nil || name == "" {
		t.Skip("no host name")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	req, _ := request(t, "file://"+strings.ToLower(name)+dir+"/f")
	r, err := (&Handler{}).Fetch(context.Background(), req)
	if err != nil {
		t.Skipf("host name %q does not parse as a URL host: %v", name, err)
	}
	if r.Redirect != "" || readAll(t, r) != "x" {
		t.Errorf("own host name was not read locally: %+v", r)
	}
}

func TestExplain(t *testing.T) {
	h := &Handler{}
	for raw, want := range map[string]string{
		"file:///etc/passwd":    "open /etc/passwd",
		"file://localhost/etc/": "readdir /etc/",
		"file:///a%0Ab":         `open "/a\nb"`,
	} {
		req, _ := request(t, raw)
		plan, err := h.Explain(req)
		if err != nil || strings.Join(plan, "|") != want {
			t.Errorf("%s: Explain = %q, %v; want %q", raw, plan, err, want)
		}
	}
	req, _ := request(t, "file:///f")
	req.Offset = 7
	if plan, _ := h.Explain(req); strings.Join(plan, "|") != "open /f|seek 7" {
		t.Errorf("Explain resume = %q", plan)
	}
}

func TestSchemes(t *testing.T) {
	s := Schemes(nil)
	if len(s) != 1 || s[0].Name != "file" || s[0].Handler != nil {
		t.Errorf("Schemes(nil) = %+v", s)
	}
	h := &Handler{}
	s = Schemes(h)
	if s[0].Handler != h {
		t.Errorf("Schemes(h) = %+v", s)
	}
	r := schemes.NewRegistry()
	r.Register(s[0])
	loc, err := r.Parse("file:///x")
	if err != nil || loc.(*URL).Path != "/x" {
		t.Errorf("registry parse: %v %v", loc, err)
	}
}
