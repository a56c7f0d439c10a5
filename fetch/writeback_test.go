package fetch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestWritebackAdvancesByChunks: the writes of a file are started once
// writebackChunk new bytes are there, from where the last start ended, so
// that each byte is handed to the kernel once, and never into the block
// being written.
func TestWritebackAdvancesByChunks(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(make([]byte, 1000)); err != nil { // bytes held before
		t.Fatal(err)
	}
	w := newWriteback(f)
	if !writebackWorks {
		if w != nil {
			t.Fatal("a writeback where the system has none")
		}
		return
	}
	if w.from != 1000 {
		t.Fatalf("starts at %d, want 1000 (the bytes held before)", w.from)
	}
	// Requests end on a writebackAlign boundary behind the write
	// position and cover at least writebackChunk bytes.
	steps := []struct {
		write    int
		wantFrom int64
	}{
		{writebackChunk - 1000, 1000},                             // a chunk from the start, not from the bytes held
		{writebackAlign, writebackChunk + writebackAlign},         // now a chunk: started, up to the boundary
		{writebackChunk / 2, writebackChunk + writebackAlign},     // half a chunk
		{writebackChunk + 5, writebackChunk*5/2 + writebackAlign}, // one and a half, but not the 5 past the boundary
	}
	for i, s := range steps {
		if _, err := f.Write(make([]byte, s.write)); err != nil {
			t.Fatal(err)
		}
		w.advance()
		w.wait()
		if w.from != s.wantFrom {
			t.Fatalf("step %d: started up to %d, want %d", i, w.from, s.wantFrom)
		}
	}
	var none *writeback
	none.advance() // a target without writeback: nothing to do, no panic
}

// TestDownloadSync: DownloadOptions.Sync fsyncs the file once, before it is
// renamed into place; without it there is no fsync.
func TestDownloadSync(t *testing.T) {
	real := syncFile
	defer func() { syncFile = real }()
	for _, durable := range []bool{false, true} {
		dest := filepath.Join(t.TempDir(), "out.bin")
		var synced []string
		syncFile = func(f *os.File) error {
			if _, err := os.Stat(dest); err == nil {
				t.Errorf("fsync after NAME appeared")
			}
			synced = append(synced, f.Name())
			return real(f)
		}
		h := &fakeHandler{data: map[string]string{"x": "0123456789"}}
		if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Sync: durable}); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(dest); string(got) != "0123456789" {
			t.Fatalf("Sync %v: NAME holds %q", durable, got)
		}
		want := 0
		if durable {
			want = 1
		}
		if len(synced) != want || (durable && synced[0] != dest+PartSuffix) {
			t.Fatalf("Sync %v: fsync of %q, want %d of NAME.part", durable, synced, want)
		}
	}
}
