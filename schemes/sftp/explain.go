package sftp

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// itoa is strconv.Itoa, for trace lines.
func itoa(n int) string { return strconv.Itoa(n) }

// Explain returns, without I/O, what Fetch would do for req on a new
// connection, one step a line, with the password as "****": the host
// key check, the login methods in the order tried, and the SFTP requests.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	lg := h.credentials(loc, req)
	g := loc.u
	address := net.JoinHostPort(g.Host, strconv.Itoa(g.EffectivePort()))
	file, ferr := h.knownHostsFile()
	if ferr != nil {
		file = "(no known hosts file)"
	}
	check := "check the host key against " + file + " (an unknown key is refused"
	if h.AcceptNew {
		check = "check the host key against " + file + " (an unknown key is accepted and added"
	}
	plan := []string{"connect " + address + " (SSH)", check + "; a changed key is refused)"}
	var auth []string
	if h.KeyFile != "" {
		auth = append(auth, "publickey "+h.KeyFile)
	} else if !req.NoAmbientCredentials {
		auth = append(auth, "publickey: the SSH agent's keys ($"+agentSocket+"), then ~/.ssh/"+
			strings.Join(identityFiles, ", ~/.ssh/")+" (those that exist)")
	}
	pw := "password (asked for at the terminal)"
	if lg.Password != nil {
		pw = "password " + schemes.Redacted
	}
	auth = append(auth, pw, "keyboard-interactive")
	plan = append(plan, "login as "+lg.User+": "+strings.Join(auth, ", then "), "subsystem sftp")
	p := loc.RemotePath()
	switch {
	case loc.IsDir():
		plan = append(plan, "OPENDIR "+p+" (on a second sftp channel, opened once)",
			fmt.Sprintf("READDIR, %d at once, until EOF; the names given as they come", readAheadDirs), "CLOSE (not waiting for its answer)")
	default:
		plan = append(plan, "STAT "+p+" and OPEN "+p+", sent together (a directory is listed)")
		switch {
		case req.Suffix > 0:
			plan = append(plan, fmt.Sprintf("READ from byte (size - %d)", req.Suffix))
		case req.Offset > 0 && req.Ranged():
			plan = append(plan, fmt.Sprintf("READ from byte %d", req.Offset))
		case req.Offset > 0:
			plan = append(plan, fmt.Sprintf("READ from byte %d (if the resume rule allows, else from 0)", req.Offset))
		default:
			plan = append(plan, "READ from byte 0")
		}
		plan = append(plan, fmt.Sprintf("READs of %d KiB, %d at once, in order", chunkSize>>10, aheadDepth))
		if req.Length > 0 {
			plan = append(plan, fmt.Sprintf("stop after %d bytes", req.Length))
		}
		plan = append(plan, "CLOSE (not waiting for its answer)")
	}
	return plan, nil
}
