package dirsrv

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Software is the server's software id, sent for a bare VERSION line.
const Software = "urlget-dirsrv"

// VirtualRoot is the virtual directory of links (like the ISI server's
// …/pfs/ftp/root): EXTERNAL links to the test bed's FTP and Gopher
// servers, a DIRECTORY link to the native tree, a FILE link on the
// AltPort server.
const VirtualRoot = "/virtual/root"

// Forwarded objects: Moved is forwarded to the AltPort server's README.txt,
// Loop to itself forever.
const (
	Moved = "/virtual/moved"
	Loop  = "/virtual/loop"
)

// LocalPrefix starts the hsonames of objects whose only access method is
// LOCAL (notes §7) naming the path after the prefix: LocalPrefix +
// "/etc/passwd" names /etc/passwd. The path is one on the client's host,
// whatever the server serves — what a hostile server would name, and
// what a test names a file of its own with. The objects are in no
// directory.
const LocalPrefix = "/virtual/local"

// link is one LINK line and the ACCESS-METHOD it carries, if EXTERNAL.
type link struct {
	target, name, host, hsoname string
	method                      []string
}

// virtualLinks are VirtualRoot's links.
func (s *Server) virtualLinks() []link {
	return []link{
		{"EXTERNAL", "ftp-readme", s.FTP, "/README.txt", []string{"AFTP", "", "", "", "", "BINARY"}},
		{"EXTERNAL", "gopher-lf", s.Gopher, "/text/lf.txt", []string{"GOPHER", "", "", "", "", "TEXT"}},
		{"EXTERNAL", "with space.txt", s.FTP, "/names/file with space.txt", []string{"FTP", "", "", "", "", "TEXT"}},
		{"DIRECTORY", "pfs", s.self(s.Port), s.Root, nil},
		{"FILE", "readme-elsewhere", s.self(s.AltPort), path.Join(s.Root, "README.txt"), nil},
	}
}

func (s *Server) self(port int) string { return fmt.Sprintf("%s(%d)", s.Host, port) }

// request is one request message's state: the directory of the last
// DIRECTORY line and the switches its hsonames asked for.
type request struct {
	s   *Server
	out bytes.Buffer
	dir string
	sw  switches
	tag string // the first switched hsoname, its prefix stripped
}

// answer runs the lines of a request message and returns the reply
// text, the switches asked for and the hsoname to count its packets
// under ("" for none: no switch, or the count query itself).
func (s *Server) answer(msg []byte) ([]byte, switches, string) {
	r := &request{s: s, sw: switches{}}
	lines, err := readLines(msg)
	if err != nil {
		line(&r.out, "ERROR", err.Error())
		return r.out.Bytes(), r.sw, ""
	}
	for _, toks := range lines {
		if stop := r.command(toks); stop {
			break
		}
	}
	if r.sw.has("count") {
		r.tag = ""
	}
	return r.out.Bytes(), r.sw, r.tag
}

// command runs one line; true ends the message (a wrong version).
func (r *request) command(toks []string) bool {
	switch toks[0] {
	case "VERSION":
		if len(toks) == 1 {
			line(&r.out, "VERSION 5 "+Software)
			return false
		}
		if toks[1] != "5" {
			r.out.WriteString("VERSION-NOT-SUPPORTED TRY 1-5") // no LF, as the ISI server
			return true
		}
	case "AUTHENTICATE":
	case "GET-OBJECT-INFO":
		if len(toks) < 4 || toks[2] != "ASCII" {
			line(&r.out, "ERROR", "GET-OBJECT-INFO: too few arguments")
			return false
		}
		r.objectInfo(strings.Split(toks[1], "+"), r.strip(toks[3]))
	case "DIRECTORY":
		if len(toks) < 3 || toks[1] != "ASCII" {
			line(&r.out, "ERROR", "DIRECTORY: too few arguments")
			return false
		}
		r.dir = r.strip(toks[2])
	case "LIST":
		if len(toks) < 3 || toks[2] != "COMPONENTS" {
			line(&r.out, "ERROR", "LIST: too few arguments")
			return false
		}
		name := "*"
		if len(toks) > 3 {
			name = toks[3]
		}
		r.list(strings.Contains(toks[1], "ATTRIBUTES"), name)
	default:
		line(&r.out, "ERROR Unknown message: "+strings.Join(toks, " "))
	}
	return false
}

// strip takes a /switch/<names>/ prefix off an hsoname into r.sw.
func (r *request) strip(hso string) string {
	rest, ok := strings.CutPrefix(hso, "/switch/")
	if !ok {
		return hso
	}
	names, rest, _ := strings.Cut(rest, "/")
	for _, n := range strings.Split(names, "+") {
		r.sw[n] = true
	}
	if r.tag == "" {
		r.tag = "/" + rest
	}
	return "/" + rest
}

// native is where an hsoname is in the native tree: its file name, or
// the FAILURE to answer.
func (r *request) native(hso string) (string, fs.FileInfo, string) {
	clean := path.Clean(hso)
	if clean != hso && clean+"/" != hso || (clean != r.s.Root && !strings.HasPrefix(clean, r.s.Root+"/")) {
		return "", nil, "NOT-AUTHORIZED"
	}
	info, err := os.Lstat(clean)
	if err != nil || !(info.Mode().IsRegular() || info.IsDir()) {
		return "", nil, "NOT-FOUND"
	}
	return clean, info, ""
}

// objectInfo answers GET-OBJECT-INFO for the attributes asked.
func (r *request) objectInfo(attrs []string, hso string) {
	switch {
	case r.sw.has("count"):
		r.countReply(attrs, hso)
		return
	case hso == Moved:
		line(&r.out, "FORWARDED INTERNET-D", r.s.self(r.s.AltPort), "ASCII", path.Join(r.s.Root, "README.txt"), "0")
		return
	case hso == Loop:
		line(&r.out, "FORWARDED INTERNET-D", r.s.self(r.s.Port), "ASCII", Loop, "0")
		return
	case strings.HasPrefix(hso, LocalPrefix+"/"):
		if all := slices.Contains(attrs, "#ALL"); all || slices.Contains(attrs, "ACCESS-METHOD") {
			line(&r.out, "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE", "LOCAL", "", "", "", strings.TrimPrefix(hso, LocalPrefix))
		} else {
			line(&r.out, "NONE-FOUND")
		}
		return
	case hso == VirtualRoot:
		if slices.Equal(attrs, []string{"ACCESS-METHOD"}) || slices.Contains(attrs, "CONTENTS") {
			line(&r.out, "NONE-FOUND")
		}
		return
	case strings.HasPrefix(hso, "/virtual/"):
		line(&r.out, "FAILURE NOT-FOUND") // a link of the virtual directory, no object
		return
	}
	name, info, failure := r.native(hso)
	if failure != "" {
		line(&r.out, "FAILURE "+failure)
		return
	}
	if slices.Contains(attrs, "CONTENTS") {
		if info.IsDir() {
			line(&r.out, "NONE-FOUND")
			return
		}
		b, err := os.ReadFile(name)
		if err != nil {
			line(&r.out, "FAILURE SERVER-FAILED")
			return
		}
		line(&r.out, "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA", string(b))
		return
	}
	alone := slices.Equal(attrs, []string{"ACCESS-METHOD"})
	switch {
	case alone && info.IsDir():
		line(&r.out, "NONE-FOUND")
		return
	case alone && !r.sw.has("nobug"):
		line(&r.out, "FAILURE NOT-FOUND") // the ISI bug (notes §9.2)
		return
	}
	all := slices.Contains(attrs, "#ALL")
	if all || slices.Contains(attrs, "SIZE") {
		r.infoAttrs(info)
	}
	if (!info.IsDir() && all || slices.Contains(attrs, "ACCESS-METHOD")) && !r.sw.has("nomethods") {
		r.methods()
	}
}

// infoAttrs writes a native object's OBJECT INTRINSIC attributes.
func (r *request) infoAttrs(info fs.FileInfo) {
	line(&r.out, "ATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE", strconv.FormatInt(info.Size(), 10)+" bytes")
	line(&r.out, "ATTRIBUTE OBJECT INTRINSIC NATIVE-OWNER SEQUENCE", "root")
	line(&r.out, "ATTRIBUTE OBJECT INTRINSIC LAST-MODIFIED SEQUENCE", info.ModTime().UTC().Format("20060102150405Z"))
	line(&r.out, "ATTRIBUTE OBJECT INTRINSIC UNIX-MODES SEQUENCE", info.Mode().String())
}

// methods writes a native file's access methods, in the server's order.
func (r *request) methods() {
	line(&r.out, "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE", "PROSPERO-CONTENTS", "", "", "", "")
	line(&r.out, "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE", "LOCAL", "", "", "", "")
}

// list answers LIST for the last DIRECTORY: the links whose names match
// the last component of name, after its others are walked.
func (r *request) list(attrs bool, name string) {
	dir := r.dir
	comps := strings.Split(name, "/")
	var links []link
	switch {
	case dir == VirtualRoot:
		if len(comps) > 1 {
			line(&r.out, "NONE-FOUND")
			return
		}
		links = r.s.virtualLinks()
	default:
		d, info, failure := r.native(dir)
		if failure != "" {
			line(&r.out, "FAILURE "+failure)
			return
		}
		if !info.IsDir() {
			line(&r.out, "FAILURE NOT-A-DIRECTORY")
			return
		}
		for _, c := range comps[:len(comps)-1] {
			if c == ".." {
				line(&r.out, "NONE-FOUND")
				return
			}
			d = path.Join(d, c)
			if info, err := os.Stat(d); err != nil || !info.IsDir() {
				line(&r.out, "NONE-FOUND")
				return
			}
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			line(&r.out, "FAILURE SERVER-FAILED")
			return
		}
		for _, e := range ents {
			target := "FILE"
			if e.IsDir() {
				target = "DIRECTORY"
			}
			links = append(links, link{target: target, name: e.Name(), host: r.s.self(r.s.Port), hsoname: path.Join(d, e.Name())})
		}
	}
	pattern := comps[len(comps)-1]
	n := 0
	for _, l := range links {
		if ok, _ := path.Match(pattern, l.name); !ok {
			continue
		}
		n++
		line(&r.out, "LINK  L "+l.target, l.name, "INTERNET-D", l.host, "ASCII", l.hsoname, "0")
		if !attrs {
			continue
		}
		if l.method != nil {
			line(&r.out, "ATTRIBUTE CACHED FIELD ACCESS-METHOD", l.method...)
			continue
		}
		if l.target == "FILE" && strings.HasPrefix(l.host, r.s.Host+"("+strconv.Itoa(r.s.Port)+")") {
			if info, err := os.Stat(l.hsoname); err == nil {
				r.infoAttrs(info)
				r.methods()
			}
		}
	}
	if n == 0 {
		line(&r.out, "NONE-FOUND")
	}
}
