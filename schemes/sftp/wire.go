package sftp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"
)

// SFTP version 3 (draft-ietf-secsh-filexfer-02), the part the directory
// channel speaks: pkg/sftp reads a directory only whole and one READDIR
// at a time, so listings go over a channel of their own (dirchan.go).

// Packet types (draft-ietf-secsh-filexfer-02 §3).
const (
	fxpInit    = 1
	fxpVersion = 2
	fxpClose   = 4
	fxpOpendir = 11
	fxpReaddir = 12
	fxpStatus  = 101
	fxpHandle  = 102
	fxpName    = 104
)

// Status codes (draft-ietf-secsh-filexfer-02 §7).
const (
	fxOK               = 0
	fxEOF              = 1
	fxNoSuchFile       = 2
	fxPermissionDenied = 3
)

// Attribute flags (draft-ietf-secsh-filexfer-02 §5).
const (
	attrSize        = 0x00000001
	attrUIDGID      = 0x00000002
	attrPermissions = 0x00000004
	attrACModTime   = 0x00000008
	attrExtended    = 0x80000000
)

// protocolVersion is the version the directory channel asks for.
const protocolVersion = 3

// maxPacket bounds a packet the server sends on the directory channel:
// OpenSSH's sftp-server sends at most 256 KiB; a longer one is refused,
// not read.
const maxPacket = 256<<10 + 1024

// errBadPacket is a packet that breaks the protocol.
var errBadPacket = errors.New("a malformed SFTP packet")

// statusError is a STATUS reply other than OK and EOF. It matches
// fs.ErrNotExist and fs.ErrPermission as its code says.
type statusError struct {
	Code uint32
	Msg  string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("the server's status %d: %q", e.Code, e.Msg)
}

// Is maps the codes with a meaning of their own in package fs.
func (e *statusError) Is(target error) bool {
	switch e.Code {
	case fxNoSuchFile:
		return target == fs.ErrNotExist
	case fxPermissionDenied:
		return target == fs.ErrPermission
	}
	return false
}

// packet builds a packet: its length is filled by bytes.
type packet []byte

// newPacket starts a packet of type typ with request id.
func newPacket(typ byte, id uint32) packet {
	p := packet{0, 0, 0, 0, typ}
	return binary.BigEndian.AppendUint32(p, id)
}

func (p packet) uint32(v uint32) packet { return binary.BigEndian.AppendUint32(p, v) }

func (p packet) string(s string) packet { return append(p.uint32(uint32(len(s))), s...) }

// bytes is the packet with its length set, ready to send.
func (p packet) bytes() []byte {
	binary.BigEndian.PutUint32(p, uint32(len(p)-4))
	return p
}

// readPacket reads one packet into buf (grown as needed, up to
// maxPacket): its type and what follows it.
func readPacket(r io.Reader, buf *[]byte) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:4])
	if n < 1 || n > maxPacket {
		return 0, nil, fmt.Errorf("%w: %d bytes long (at most %d taken)", errBadPacket, n, maxPacket)
	}
	if cap(*buf) < int(n-1) {
		*buf = make([]byte, n-1)
	}
	b := (*buf)[:n-1]
	if _, err := io.ReadFull(r, b); err != nil {
		return 0, nil, err
	}
	return hdr[4], b, nil
}

// decoder reads the fields of a packet, remembering the first shortfall.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uint32() uint32 {
	if len(d.b) < 4 {
		d.err = errBadPacket
		d.b = nil
		return 0
	}
	v := binary.BigEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}

func (d *decoder) uint64() uint64 {
	hi := d.uint32()
	return uint64(hi)<<32 | uint64(d.uint32())
}

func (d *decoder) string() string {
	n := d.uint32()
	if uint64(n) > uint64(len(d.b)) {
		d.err = errBadPacket
		d.b = nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// skip passes over a string without copying it.
func (d *decoder) skip() {
	n := d.uint32()
	if uint64(n) > uint64(len(d.b)) {
		d.err = errBadPacket
		d.b = nil
		return
	}
	d.b = d.b[n:]
}

// attrs reads an ATTRS structure (draft §5) as what a listing shows.
func (d *decoder) attrs(name string) *fileInfo {
	fi := &fileInfo{name: name}
	flags := d.uint32()
	if flags&attrSize != 0 {
		fi.size = int64(d.uint64())
	}
	if flags&attrUIDGID != 0 {
		d.uint32()
		d.uint32()
	}
	if flags&attrPermissions != 0 {
		fi.mode = fileMode(d.uint32())
	}
	if flags&attrACModTime != 0 {
		d.uint32() // atime
		fi.mtime = time.Unix(int64(d.uint32()), 0)
	}
	if flags&attrExtended != 0 {
		for n := d.uint32(); n > 0 && d.err == nil; n-- {
			d.skip()
			d.skip()
		}
	}
	return fi
}

// status reads a STATUS reply's code and message as an error: nil for
// OK, io.EOF for EOF.
func (d *decoder) status() error {
	code := d.uint32()
	msg := d.string()
	if d.err != nil {
		return d.err
	}
	switch code {
	case fxOK:
		return nil
	case fxEOF:
		return io.EOF
	}
	return &statusError{Code: code, Msg: msg}
}

// Unix file type bits of an SFTP permissions field (POSIX st_mode).
const (
	modeType     = 0o170000
	modeDir      = 0o040000
	modeSymlink  = 0o120000
	modeRegular  = 0o100000
	modeFIFO     = 0o010000
	modeSocket   = 0o140000
	modeCharDev  = 0o020000
	modeBlockDev = 0o060000
)

// fileMode turns a POSIX st_mode into an fs.FileMode.
func fileMode(m uint32) fs.FileMode {
	fm := fs.FileMode(m & 0o777)
	switch m & modeType {
	case modeDir:
		fm |= fs.ModeDir
	case modeSymlink:
		fm |= fs.ModeSymlink
	case modeFIFO:
		fm |= fs.ModeNamedPipe
	case modeSocket:
		fm |= fs.ModeSocket
	case modeCharDev:
		fm |= fs.ModeDevice | fs.ModeCharDevice
	case modeBlockDev:
		fm |= fs.ModeDevice
	case modeRegular:
	default:
		fm |= fs.ModeIrregular
	}
	if m&0o4000 != 0 {
		fm |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		fm |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		fm |= fs.ModeSticky
	}
	return fm
}

// fileInfo is an entry of a directory as READDIR describes it.
type fileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

var _ fs.FileInfo = (*fileInfo)(nil)

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.mtime }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }
