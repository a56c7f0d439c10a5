package hostile

import (
	"fmt"
	"io"
	"net"
	"path"
	"strings"
)

// FTPTree serves t over FTP (RFC 959): the login and passive mode of
// ftpServer, and from the tree CWD and CDUP between the top and its
// directories, LIST in the ls -l form vsftpd writes, NLST, SIZE, MDTM and
// RETR. Once t is cut, the top directory's LIST names its first
// TreeCutAfter entries only, cut at a line end and confirmed by a clean
// 226: on the wire it is a whole listing that names fewer files, which
// only a mirror's own guard can doubt.
func FTPTree(t *Tree) func(*Conn) { return ftpServer{greet: greeting, tree: t}.serve }

// ftpTree is one session's view of a Tree: its current directory.
type ftpTree struct {
	t   *Tree
	dir string // below the top: "" or "d1"
}

// command answers the commands that act on the tree; handled is false
// for the others (and always for a nil ftpTree), which ftpServer
// answers. data is the passive listener, used by LIST, NLST and RETR.
func (f *ftpTree) command(c *Conn, verb, arg string, data net.Listener, reply func(string) error) (handled bool, err error) {
	if f == nil {
		return false, nil
	}
	p := strings.TrimPrefix(path.Join("/", f.dir, arg), "/")
	if strings.HasPrefix(arg, "/") {
		p = strings.TrimPrefix(path.Clean(arg), "/")
	}
	send := func(write func(io.Writer) error) error { return ftpServer{list: write}.send(c, data, reply) }
	switch verb {
	case "PWD":
		return true, reply(`257 "/` + f.dir + `" is the directory`)
	case "SYST":
		return true, reply("215 UNIX Type: L8")
	case "CWD", "CDUP":
		if verb == "CDUP" {
			p = strings.TrimPrefix(path.Dir("/"+f.dir), "/")
		}
		if _, _, ok := f.t.entries(p); !ok {
			return true, reply("550 no such directory")
		}
		f.dir = p
		return true, reply("250 directory changed")
	case "LIST", "NLST":
		names, _, _ := f.t.entries(f.dir)
		return true, send(func(w io.Writer) error { return lsLines(w, f.dir, names, verb == "LIST") })
	case "SIZE", "MDTM", "RETR":
		body, ok := treeFile(p)
		switch {
		case !ok:
			return true, reply("550 no such file")
		case verb == "SIZE":
			return true, reply(fmt.Sprintf("213 %d", len(body)))
		case verb == "MDTM":
			return true, reply("213 20200102030405")
		}
		return true, send(func(w io.Writer) error {
			_, err := io.WriteString(w, body)
			return err
		})
	}
	return false, nil
}

// lsLines writes the entries of dir as ls -l lines (long) or bare names.
func lsLines(w io.Writer, dir string, names []string, long bool) error {
	var b strings.Builder
	for _, n := range names {
		switch {
		case !long:
			b.WriteString(strings.TrimSuffix(n, "/"))
		case strings.HasSuffix(n, "/"):
			fmt.Fprintf(&b, "drwxr-xr-x    2 1000     1000         4096 Jan 02  2020 %s", strings.TrimSuffix(n, "/"))
		default:
			body, _ := treeFile(strings.TrimPrefix(dir+"/"+n, "/"))
			fmt.Fprintf(&b, "-rw-r--r--    1 1000     1000     %8d Jan 02  2020 %s", len(body), n)
		}
		b.WriteString("\r\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
