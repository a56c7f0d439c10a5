package sftp

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"
)

// fileAt is a file read at offsets, as pkg/sftp's File answers: a read
// that reaches the end is short with io.EOF. It counts the reads at once.
type fileAt struct {
	data       []byte
	failAt     int64 // a read covering this offset fails (-1: none)
	mu         sync.Mutex
	now, most  int
	reads      int
	gate       chan struct{} // when set, every read waits for it
	readsStart chan struct{} // when set, told of each read's start
}

var errDisk = errors.New("the disk failed")

func (f *fileAt) ReadAt(b []byte, off int64) (int, error) {
	f.mu.Lock()
	f.now++
	f.reads++
	f.most = max(f.most, f.now)
	f.mu.Unlock()
	if f.readsStart != nil {
		f.readsStart <- struct{}{}
	}
	if f.gate != nil {
		<-f.gate
	}
	defer func() { f.mu.Lock(); f.now--; f.mu.Unlock() }()
	if f.failAt >= 0 && off <= f.failAt && f.failAt < off+int64(len(b)) {
		return 0, errDisk
	}
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(b, f.data[off:])
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// counts are the reads so far and the most at once. Reads past the end
// may still be on their way when the reader has seen it: the counts are
// then low, never high, so the bounds checked on them hold.
func (f *fileAt) counts() (reads, most int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads, f.most
}

func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/chunkSize)
	}
	return b
}

// TestReadAhead reads files whole and in ranges, with the size the server
// told right, too small (the file grew) and too large (it shrank).
func TestReadAhead(t *testing.T) {
	size := 3*chunkSize + 1234
	tests := []struct {
		name           string
		data           int
		off, end, hint int64
		want           [2]int // the bytes of data expected
		maxReads       int    // at most this many ReadAt calls
	}{
		{"whole", size, 0, -1, int64(size), [2]int{0, size}, 4},
		{"exact chunks", 2 * chunkSize, 0, -1, 2 * chunkSize, [2]int{0, 2 * chunkSize}, 3},
		{"empty", 0, 0, -1, 0, [2]int{0, 0}, 1},
		{"small", 5000, 0, -1, 5000, [2]int{0, 5000}, 1},
		{"from an offset", size, 1000, -1, int64(size), [2]int{1000, size}, 4},
		{"a range", size, 100, 100 + chunkSize + 5, int64(size), [2]int{100, 100 + chunkSize + 5}, 2},
		{"grew past the size told", 20 * chunkSize, 0, -1, chunkSize, [2]int{0, 20 * chunkSize}, 21},
		{"shrank below the size told", chunkSize / 2, 0, -1, int64(size), [2]int{0, chunkSize / 2}, aheadDepth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := pattern(tt.data)
			f := &fileAt{data: data, failAt: -1}
			got, err := io.ReadAll(newReadAhead(f, tt.off, tt.end, tt.hint))
			if err != nil {
				t.Fatal(err)
			}
			if want := data[tt.want[0]:tt.want[1]]; !bytes.Equal(got, want) {
				t.Fatalf("read %d bytes, want %d (equal prefix: %v)", len(got), len(want), bytes.HasPrefix(want, got))
			}
			reads, most := f.counts()
			if reads > tt.maxReads {
				t.Errorf("%d reads, want at most %d", reads, tt.maxReads)
			}
			if most > aheadDepth {
				t.Errorf("%d reads at once, want at most %d", most, aheadDepth)
			}
		})
	}
}

// TestReadAheadInFlight: the reads are asked for at once, before any
// answers (what fills a long link), and no more than aheadDepth.
func TestReadAheadInFlight(t *testing.T) {
	data := pattern(20 * chunkSize)
	f := &fileAt{data: data, failAt: -1, gate: make(chan struct{}), readsStart: make(chan struct{}, 64)}
	r := newReadAhead(f, 0, -1, int64(len(data)))
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	for range aheadDepth {
		<-f.readsStart // every one of them started with none answered
	}
	close(f.gate)
	if got := <-done; !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, want %d", len(got), len(data))
	}
	if _, most := f.counts(); most != aheadDepth {
		t.Errorf("%d reads at once, want %d", most, aheadDepth)
	}
}

// TestReadAheadFailure: the bytes before a failed chunk are read, then its
// error, and nothing after it.
func TestReadAheadFailure(t *testing.T) {
	data := pattern(6 * chunkSize)
	f := &fileAt{data: data, failAt: 2*chunkSize + 10}
	got, err := io.ReadAll(newReadAhead(f, 0, -1, int64(len(data))))
	if !errors.Is(err, errDisk) {
		t.Fatalf("error %v, want %v", err, errDisk)
	}
	if !bytes.Equal(got, data[:2*chunkSize]) {
		t.Fatalf("read %d bytes before the failure, want %d", len(got), 2*chunkSize)
	}
}

// TestReadAheadStop: a stopped reader reads no more.
func TestReadAheadStop(t *testing.T) {
	data := pattern(4 * chunkSize)
	r := newReadAhead(&fileAt{data: data, failAt: -1}, 0, -1, int64(len(data)))
	if _, err := r.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	r.stop()
	if n, err := r.Read(make([]byte, 10)); n != 0 || err == nil {
		t.Fatalf("after stop: %d bytes, %v; want none and an error", n, err)
	}
}
