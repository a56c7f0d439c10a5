package sftp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"
)

// dirServer is an SFTP version 3 server of directories, written from
// draft-ietf-secsh-filexfer-02 for these tests (it shares no code with
// the client): OPENDIR, READDIR in batches, CLOSE.
type dirServer struct {
	t     *testing.T
	conn  io.ReadWriter
	dirs  map[string][]string // path → names, "." and ".." included
	batch int
	// holdFor makes the server read this many READDIRs before it
	// answers the first: a client that waits for each answer before
	// asking again would stall it (and fail by the deadline).
	holdFor int
	// endless answers every READDIR of "/endless" with a new batch.
	served  int
	handles map[string]int // handle → position in its directory
	path    map[string]string
	// hostile replaces the answer to the first READDIR.
	hostile []byte
	closes  int
}

func (s *dirServer) readPacket() (byte, []byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(s.conn, hdr[:]); err != nil {
		return 0, nil, err
	}
	b := make([]byte, binary.BigEndian.Uint32(hdr[:]))
	if _, err := io.ReadFull(s.conn, b); err != nil {
		return 0, nil, err
	}
	return b[0], b[1:], nil
}

func (s *dirServer) write(typ byte, fields ...any) {
	var b []byte
	b = append(b, typ)
	for _, f := range fields {
		switch v := f.(type) {
		case uint32:
			b = binary.BigEndian.AppendUint32(b, v)
		case uint64:
			b = binary.BigEndian.AppendUint64(b, v)
		case string:
			b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
			b = append(b, v...)
		case []byte:
			b = append(b, v...)
		}
	}
	s.conn.Write(binary.BigEndian.AppendUint32(nil, uint32(len(b))))
	s.conn.Write(b)
}

func str(b []byte) (string, []byte) {
	n := binary.BigEndian.Uint32(b)
	return string(b[4 : 4+n]), b[4+n:]
}

// serve answers until the connection ends.
func (s *dirServer) serve() {
	s.handles, s.path = map[string]int{}, map[string]string{}
	typ, _, err := s.readPacket()
	if err != nil || typ != 1 {
		return
	}
	s.write(2, uint32(3))
	var held [][]byte
	for {
		typ, b, err := s.readPacket()
		if err != nil {
			return
		}
		id := binary.BigEndian.Uint32(b)
		switch typ {
		case 11: // OPENDIR
			p, _ := str(b[4:])
			if _, ok := s.dirs[p]; !ok && p != "/endless" {
				if strings.HasPrefix(p, "/secret") {
					s.write(101, id, uint32(3), "Permission denied", "")
				} else {
					s.write(101, id, uint32(2), "No such file", "")
				}
				continue
			}
			h := fmt.Sprintf("h%d", len(s.handles))
			s.handles[h], s.path[h] = 0, p
			s.write(102, id, h)
		case 12: // READDIR
			held = append(held, b)
			if len(held) < s.holdFor {
				continue
			}
			s.holdFor = 0
			for _, b := range held {
				s.readdir(b)
			}
			held = nil
		case 4: // CLOSE
			s.closes++
			s.write(101, id, uint32(0), "", "")
		default:
			s.write(101, id, uint32(8), "unsupported", "")
		}
	}
}

func (s *dirServer) readdir(b []byte) {
	id := binary.BigEndian.Uint32(b)
	h, _ := str(b[4:])
	if s.hostile != nil {
		s.conn.Write(s.hostile)
		s.hostile = nil
		return
	}
	p := s.path[h]
	names := s.dirs[p]
	if p == "/endless" {
		names = nil
		for i := range s.batch {
			names = append(names, fmt.Sprintf("n%d", s.served+i))
		}
		s.served += s.batch
	} else {
		pos := s.handles[h]
		if pos >= len(names) {
			s.write(101, id, uint32(1), "End of file", "")
			return
		}
		names = names[pos:min(len(names), pos+s.batch)]
		s.handles[h] = pos + len(names)
	}
	fields := []any{id, uint32(len(names))}
	for i, n := range names {
		mode := uint32(0o100644)
		if n == "." || n == ".." || strings.HasPrefix(n, "dir") {
			mode = 0o040755
		}
		// flags: size, permissions, times; size i, mtime 2024-01-02.
		fields = append(fields, n, "-rw-r--r-- "+n, uint32(0x1|0x4|0x8), uint64(i), mode, uint32(0), uint32(1704164645))
	}
	s.write(104, fields...)
}

// pipeEnd is one end of two OS pipes: buffered by the kernel, as an SSH
// channel is by its window, and with deadlines.
type pipeEnd struct {
	*os.File // read
	w        *os.File
}

func (p pipeEnd) Write(b []byte) (int, error) { return p.w.Write(b) }

func (p pipeEnd) Close() error { p.w.Close(); return p.File.Close() }

// dirTest starts a dirServer over pipes and a client on them.
func dirTest(t *testing.T, s *dirServer) *dirChannel {
	t.Helper()
	r1, w1, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c, srv := pipeEnd{r1, w2}, pipeEnd{r2, w1}
	deadline := time.Now().Add(10 * time.Second) // a stalled exchange fails, never hangs
	for _, f := range []*os.File{r1, w1, r2, w2} {
		f.SetDeadline(deadline)
	}
	s.t, s.conn = t, srv
	done := make(chan struct{})
	go func() { s.serve(); close(done) }()
	t.Cleanup(func() { c.Close(); srv.Close(); <-done })
	d, err := newDirChannel(c, c)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func names(n int) []string {
	out := []string{".", ".."}
	for i := range n {
		out = append(out, fmt.Sprintf("f%03d", i))
	}
	return out
}

func readAll(t *testing.T, r *dirReader) []string {
	t.Helper()
	var got []string
	for {
		fi, err := r.next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fi.Name())
	}
}

// TestDirChannelPipelined: a directory of 252 names in batches of 100
// is read whole with its READDIRs sent ahead (the server answers none
// before it holds readAheadDirs of them), and in the server's order.
func TestDirChannelPipelined(t *testing.T) {
	s := &dirServer{dirs: map[string][]string{"/d": names(250)}, batch: 100, holdFor: readAheadDirs}
	d := dirTest(t, s)
	r, err := d.readDir("/d")
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r)
	if want := names(250); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %d names, want %d", len(got), len(want))
	}
	r.close()
	// The channel is in step for the next listing: the CLOSE's answer
	// and the READDIRs' left over are passed by.
	r, err = d.readDir("/d")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); len(got) != 252 {
		t.Fatalf("second listing: %d names, want 252", len(got))
	}
}

// TestDirChannelAttributes: each name's attributes as fs.FileInfo.
func TestDirChannelAttributes(t *testing.T) {
	d := dirTest(t, &dirServer{dirs: map[string][]string{"/d": {"dir1", "f"}}, batch: 100})
	r, err := d.readDir("/d")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := r.next()
	if err != nil {
		t.Fatal(err)
	}
	f, err := r.next()
	if err != nil {
		t.Fatal(err)
	}
	if !dir.IsDir() || dir.Mode().Perm() != 0o755 {
		t.Errorf("dir1: mode %v, want a directory 0755", dir.Mode())
	}
	want := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	if f.IsDir() || !f.Mode().IsRegular() || f.Size() != 1 || !f.ModTime().Equal(want) || f.Mode().Perm() != 0o644 {
		t.Errorf("f: %v %d %v, want a file of 1 byte 0644 at %v", f.Mode(), f.Size(), f.ModTime(), want)
	}
}

// TestDirChannelEndless: a directory that never ends is read as far as
// the reader goes, a batch at a time, and closed; nothing is held but a
// batch (the server sends only what is asked).
func TestDirChannelEndless(t *testing.T) {
	s := &dirServer{batch: 100}
	d := dirTest(t, s)
	r, err := d.readDir("/endless")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		fi, err := r.next()
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("n%d", i); fi.Name() != want {
			t.Fatalf("name %d: %q, want %q", i, fi.Name(), want)
		}
		if len(r.pending) > 100 {
			t.Fatalf("%d names held", len(r.pending))
		}
	}
	r.close()
}

// TestDirChannelStatus: OPENDIR's refusals are fs's errors.
func TestDirChannelStatus(t *testing.T) {
	d := dirTest(t, &dirServer{dirs: map[string][]string{}, batch: 100})
	if _, err := d.readDir("/none"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want fs.ErrNotExist", err)
	}
	if _, err := d.readDir("/secret"); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("refused: %v, want fs.ErrPermission", err)
	}
	if d.broken != nil {
		t.Errorf("a refusal broke the channel: %v", d.broken)
	}
}

// TestDirChannelHostile: answers that break the protocol end the listing
// with errBadPacket and leave the channel broken (closed by its session).
func TestDirChannelHostile(t *testing.T) {
	pkt := func(b ...byte) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...) }
	tests := map[string][]byte{
		"too long":           binary.BigEndian.AppendUint32(nil, maxPacket+1),
		"count past the end": pkt(104, 0, 0, 0, 2, 0xff, 0xff, 0xff, 0xff),
		"name past the end":  pkt(104, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 1, 0, 'x'),
		"unasked id":         pkt(104, 0, 0, 0x7f, 0, 0, 0, 0, 0),
		"wrong type":         pkt(102, 0, 0, 0, 2, 0, 0, 0, 1, 'h'),
	}
	for name, hostile := range tests {
		t.Run(name, func(t *testing.T) {
			d := dirTest(t, &dirServer{dirs: map[string][]string{"/d": names(3)}, batch: 100, hostile: hostile})
			r, err := d.readDir("/d")
			if err != nil {
				t.Fatal(err)
			}
			for err == nil {
				_, err = r.next()
			}
			if !errors.Is(err, errBadPacket) || d.broken == nil {
				t.Fatalf("%v (channel broken: %v), want %v", err, d.broken, errBadPacket)
			}
		})
	}
}
