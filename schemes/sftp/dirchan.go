package sftp

import (
	"bufio"
	"fmt"
	"io"

	"golang.org/x/crypto/ssh"
)

// readAheadDirs is how many READDIRs are in flight on a handle: each
// answer brings a batch of names (OpenSSH's sftp-server: up to 100), so
// a directory of a few hundred names comes in one round trip, not one
// round trip a batch and one more for the end.
const readAheadDirs = 4

// dirChannel is a second sftp subsystem on a session's SSH connection,
// for listings only: OPENDIR, then READDIRs sent ahead of their answers,
// whose names are handed on as they are parsed (a listing of any length
// is never held whole), and a CLOSE not waited for. A directory of 100
// names took five round trips through pkg/sftp (OPENDIR, READDIR, one
// more for "." and "..", the EOF, CLOSE); it takes two here. It is used
// by one listing at a time, as the session is.
type dirChannel struct {
	ss     *ssh.Session // nil in tests
	w      io.WriteCloser
	r      *bufio.Reader
	buf    []byte
	id     uint32
	stale  map[uint32]bool // requests whose answers nobody waits for
	broken error           // set once the channel is out of step
}

// openDirChannel starts the sftp subsystem on a new channel of c.
func openDirChannel(c *ssh.Client) (*dirChannel, error) {
	ss, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	w, err := ss.StdinPipe()
	if err != nil {
		ss.Close()
		return nil, err
	}
	r, err := ss.StdoutPipe()
	if err != nil {
		ss.Close()
		return nil, err
	}
	if err := ss.RequestSubsystem("sftp"); err != nil {
		ss.Close()
		return nil, err
	}
	d, err := newDirChannel(r, w)
	if err != nil {
		ss.Close()
		return nil, err
	}
	d.ss = ss
	return d, nil
}

// newDirChannel says INIT on w and reads the VERSION from r.
func newDirChannel(r io.Reader, w io.WriteCloser) (*dirChannel, error) {
	d := &dirChannel{w: w, r: bufio.NewReaderSize(r, 64<<10), stale: map[uint32]bool{}}
	// INIT has a version where other packets have an id.
	if _, err := w.Write(newPacket(fxpInit, protocolVersion).bytes()); err != nil {
		return nil, err
	}
	typ, b, err := readPacket(d.r, &d.buf)
	if err != nil {
		return nil, err
	}
	dec := decoder{b: b}
	if v := dec.uint32(); typ != fxpVersion || dec.err != nil || v < protocolVersion {
		return nil, fmt.Errorf("%w: the server answered INIT with packet type %d, version %d", errBadPacket, typ, v)
	}
	return d, nil
}

// Close ends the channel.
func (d *dirChannel) Close() error {
	if d.ss != nil {
		return d.ss.Close()
	}
	return d.w.Close()
}

// send sends a request of type typ whose fields fill adds, returning its
// id.
func (d *dirChannel) send(typ byte, fill func(packet) packet) (uint32, error) {
	if d.broken != nil {
		return 0, d.broken
	}
	d.id++
	if _, err := d.w.Write(fill(newPacket(typ, d.id)).bytes()); err != nil {
		d.broken = err
		return 0, err
	}
	return d.id, nil
}

// reply reads the next answer to one of the requests want says it waits
// for, passing over those of requests left behind (a CLOSE, READDIRs
// sent ahead of a listing's end); it returns the answer's id, type and
// decoder.
func (d *dirChannel) reply(want func(uint32) bool) (uint32, byte, *decoder, error) {
	for {
		if d.broken != nil {
			return 0, 0, nil, d.broken
		}
		typ, b, err := readPacket(d.r, &d.buf)
		if err != nil {
			d.broken = err
			return 0, 0, nil, err
		}
		dec := &decoder{b: b}
		id := dec.uint32()
		switch {
		case dec.err != nil:
			d.broken = dec.err
		case d.stale[id]:
			delete(d.stale, id)
			continue
		case !want(id):
			d.broken = fmt.Errorf("%w: an answer to request %d, which was not asked", errBadPacket, id)
		default:
			return id, typ, dec, nil
		}
		return 0, 0, nil, d.broken
	}
}

// openDir sends OPENDIR p and returns the handle.
func (d *dirChannel) openDir(p string) (string, error) {
	id, err := d.send(fxpOpendir, func(pk packet) packet { return pk.string(p) })
	if err != nil {
		return "", err
	}
	_, typ, dec, err := d.reply(func(got uint32) bool { return got == id })
	if err != nil {
		return "", err
	}
	switch typ {
	case fxpHandle:
		h := dec.string()
		return h, dec.err
	case fxpStatus:
		if err := dec.status(); err != nil && err != io.EOF {
			return "", err
		}
	}
	d.broken = fmt.Errorf("%w: packet type %d in answer to OPENDIR", errBadPacket, typ)
	return "", d.broken
}

// dirReader reads one directory through an open handle.
type dirReader struct {
	d       *dirChannel
	handle  string
	ahead   map[uint32]bool // READDIRs sent, not answered
	pending []*fileInfo     // names of the last batch not yet handed on
	err     error
}

// readDir opens p and sends the first READDIRs.
func (d *dirChannel) readDir(p string) (*dirReader, error) {
	h, err := d.openDir(p)
	if err != nil {
		return nil, err
	}
	r := &dirReader{d: d, handle: h, ahead: map[uint32]bool{}}
	for range readAheadDirs {
		if err := r.ask(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ask sends one more READDIR.
func (r *dirReader) ask() error {
	id, err := r.d.send(fxpReaddir, func(pk packet) packet { return pk.string(r.handle) })
	if err == nil {
		r.ahead[id] = true
	}
	return err
}

// next returns the directory's next name ("." and ".." included, as the
// server sends them), io.EOF after the last.
func (r *dirReader) next() (*fileInfo, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return nil, r.err
		}
		if len(r.ahead) == 0 {
			r.err = io.EOF
			return nil, r.err
		}
		id, typ, dec, err := r.d.reply(func(got uint32) bool { return r.ahead[got] })
		if err != nil {
			r.err = err
			return nil, err
		}
		delete(r.ahead, id)
		switch typ {
		case fxpName:
			for n := dec.uint32(); n > 0 && dec.err == nil; n-- {
				name := dec.string()
				dec.skip() // longname: ls -l's line, which the attributes say better
				r.pending = append(r.pending, dec.attrs(name))
			}
			if dec.err != nil {
				r.d.broken, r.err = dec.err, dec.err
				return nil, r.err
			}
			if err := r.ask(); err != nil {
				r.err = err
				return nil, err
			}
		case fxpStatus:
			if err := dec.status(); err != io.EOF {
				if err == nil {
					err = fmt.Errorf("%w: OK in answer to READDIR", errBadPacket)
				}
				r.err = err
				return nil, err
			}
			// The READDIRs still out will say EOF too: close passes
			// over their answers.
			r.err = io.EOF
		default:
			r.d.broken = fmt.Errorf("%w: packet type %d in answer to READDIR", errBadPacket, typ)
			r.err = r.d.broken
			return nil, r.err
		}
	}
	fi := r.pending[0]
	r.pending = r.pending[1:]
	return fi, nil
}

// close sends CLOSE for the handle without waiting for its answer, which
// the channel's next reader passes over with those of READDIRs still out.
func (r *dirReader) close() {
	for id := range r.ahead {
		r.d.stale[id] = true
	}
	r.ahead = nil
	if id, err := r.d.send(fxpClose, func(pk packet) packet { return pk.string(r.handle) }); err == nil {
		r.d.stale[id] = true
	}
}
