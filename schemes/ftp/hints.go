package ftp

import (
	"errors"
	"fmt"

	"github.com/urlget/urlget/schemes"
)

// emptySegment adds to err, the failure of the CWD of the empty segment
// i of loc's path, what that segment means: "ftp://h//etc" asks for "CWD "
// with an empty argument (RFC 1738 §3.2.2), which many servers refuse,
// whereas a path from the server's root is written with %2F. Failures
// that are not the server's answer (busy, broken connection) are left as
// they are.
func emptySegment(loc *URL, i int, err error) error {
	var se *schemes.Error
	if !errors.As(err, &se) || se.Code == 0 || se.Kind == schemes.KindBusy {
		return err
	}
	hint := `the URL's path has an empty segment ("//"), which RFC 1738 sends as CWD with an empty argument, ` +
		"and this server refuses it; "
	if i == 0 {
		hint += "a path from the server's root is written with %2F: " + fromRoot(loc).Redacted()
	} else {
		hint += `remove the extra "/"`
	}
	se.Msg += " (" + hint + ")"
	return se
}

// fromRoot is loc with its leading empty segment made "%2F": "//etc/motd"
// becomes "/%2Fetc/motd", "//motd" becomes "/%2F/motd".
func fromRoot(loc *URL) *URL {
	dir := []string{"/"}
	if len(loc.Cwd) > 1 {
		dir = append([]string{"/" + loc.Cwd[1]}, loc.Cwd[2:]...)
	}
	return loc.at(dir, loc.Name, loc.Type)
}

// notAFile turns the 550 of "RETR name" into advice when name is a
// directory: one CWD into it tells, and on success the URL lacked its
// trailing "/" (KindUsage, naming the URL that lists it). Otherwise, or
// when the check itself fails, err stands. The connection stays in the
// directory; chdir leaves it for the next URL.
func (c *ctrl) notAFile(loc *URL, err error) error {
	rp, cerr := c.cmd("CWD " + loc.Name)
	if cerr != nil || rp.Code/100 != 2 {
		if rp.Code == codeServiceNotAvailable {
			c.broken = true
		}
		return err
	}
	c.entered(loc.Name)
	dir := loc.at(append(loc.Cwd[:len(loc.Cwd):len(loc.Cwd)], loc.Name), "", 0)
	return &schemes.Error{Scheme: loc.u.Scheme, Phase: "retr", Kind: schemes.KindUsage, Code: codeFileUnavailable,
		Part: "name", Msg: fmt.Sprintf(`%q is a directory, not a file (%s): add "/" to list it: %s`,
			loc.Name, errorText(err), dir.Redacted())}
}
