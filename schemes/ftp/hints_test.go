package ftp

import (
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestEmptySegment: a server that refuses the "CWD " of an empty path
// segment gets an error that says what the segment means and, for a
// leading one, the %2F URL of the path from the server's root.
func TestEmptySegment(t *testing.T) {
	for _, tc := range []struct {
		name, path, reply string
		kind              schemes.Kind
		code              int
		hint              string // "" means none
	}{
		{name: "vsftpd", path: "/etc/motd", reply: "550 Failed to change directory.", kind: schemes.KindNotFound, code: 550,
			hint: "/%2Fetc/motd"},
		{name: "syntax error", path: "/etc/motd", reply: "501 Missing argument", kind: schemes.KindProtocol, code: 501,
			hint: "/%2Fetc/motd"},
		{name: "root", path: "/motd", reply: "550 Failed to change directory.", kind: schemes.KindNotFound, code: 550,
			hint: "/%2F/motd"},
		{name: "deeper", path: "/etc/x/y;type=i", reply: "550 No.", kind: schemes.KindNotFound, code: 550,
			hint: "/%2Fetc/x/y;type=i"},
		{name: "middle", path: "a//motd", reply: "550 No.", kind: schemes.KindNotFound, code: 550, hint: `remove the extra "/"`},
		{name: "busy", path: "/etc/motd", reply: "421 Too many users.", kind: schemes.KindBusy, code: 421},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.replies["CWD "] = tc.reply
			_, _, err := newEnv(t).get(t, f.url(tc.path))
			se := kindCode(t, err, tc.kind, tc.code, tc.kind == schemes.KindBusy)
			has := strings.Contains(se.Msg, `empty segment ("//")`)
			if has != (tc.hint != "") || !strings.Contains(se.Msg, tc.hint) {
				t.Errorf("message %q, want the hint %q", se.Msg, tc.hint)
			}
			if tc.hint != "" && tc.hint[0] == '/' && !strings.Contains(se.Msg, f.ln.Addr().String()+tc.hint) {
				t.Errorf("message %q: want the URL ending %q", se.Msg, tc.hint)
			}
		})
	}
}

// TestDirectoryWithoutSlash: RETR of a directory fails (550); one CWD into
// the name tells it is a directory, and the error says to add "/". The
// connection stays usable, in that directory, and the next URL changes
// from there.
func TestDirectoryWithoutSlash(t *testing.T) {
	f := newFake(t)
	f.dirs["sub"] = true
	f.files["a.bin"] = "a"
	e := newEnv(t)
	_, _, err := e.get(t, f.url("pub/sub"))
	se := kindCode(t, err, schemes.KindUsage, 550, false)
	want := `"sub" is a directory, not a file (RETR sub: server replied 550 sub: No such file or directory): ` +
		`add "/" to list it: ftp://` + f.ln.Addr().String() + "/pub/sub/"
	if !strings.Contains(se.Error(), want) || se.Part != "name" || se.Kind.ExitCode() != 2 {
		t.Errorf("error %q (part %q), want %q", se.Error(), se.Part, want)
	}
	if got, _, err := e.get(t, f.url("pub/a.bin")); err != nil || got != "a" {
		t.Fatalf("next URL: %q %v", got, err)
	}
	wantCmds(t, f, append(anonLogin, "CWD pub", "TYPE I", "SIZE sub", "EPSV", "RETR sub", "CWD sub",
		"CWD /home/u", "CWD pub", "SIZE a.bin", "EPSV", "RETR a.bin")...)
	if f.connCount() != 1 {
		t.Errorf("%d connections, want 1", f.connCount())
	}
	// A name that is neither stays not found.
	_, _, err = e.get(t, f.url("pub/nothing"))
	kindCode(t, err, schemes.KindNotFound, 550, false)
}
