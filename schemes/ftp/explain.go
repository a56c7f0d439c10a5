package ftp

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// Explain returns the commands Fetch would send for req on a new
// connection, in order, with the password as "****". Commands that depend
// on the server's replies are written as Fetch sends them first: EPSV
// (PASV only if EPSV is refused), PASS (sent only if USER is answered
// 331), SYST and the TYPE it decides for a text-looking name without
// ";type=", MLSD when FEAT offers it, LIST otherwise, REST (when the resume
// rule allows). A connection reused for the next URL sends only what
// changes: CWD when the directory differs, TYPE when it changes, SIZE
// while the server's 150 replies do not give the size.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	lg := h.credentials(loc, req)
	if err := checkLines(loc, lg); err != nil {
		return nil, err
	}
	g := loc.u
	conn := "connect " + net.JoinHostPort(g.Host, strconv.Itoa(g.EffectivePort()))
	if g.Scheme == "ftps" {
		conn += " (TLS)"
	}
	plan := []string{conn}
	tls := h.explicitTLS(req) || g.Scheme == "ftps"
	if h.explicitTLS(req) && g.Scheme == "ftp" {
		plan = append(plan, "AUTH TLS")
	}
	plan = append(plan, "USER "+lg.User, "PASS "+schemes.Redacted)
	if tls {
		plan = append(plan, "PBSZ 0", "PROT P")
	}
	plan = append(plan, "PWD")
	for _, s := range loc.Cwd {
		plan = append(plan, "CWD "+s)
	}
	switch {
	case loc.Type == 'd':
		cmd := "NLST"
		if loc.Name != "" {
			cmd += " " + loc.Name
		}
		plan = append(plan, "TYPE A", "EPSV", cmd)
	case loc.Name == "":
		plan = append(plan, "FEAT", "TYPE A", "EPSV", "MLSD (or LIST)")
	default:
		tt := h.transferType(loc, partOf(req), req.Exact)
		typ := "TYPE " + strings.ToUpper(string(tt.t))
		if tt.askSystem {
			plan = append(plan, "SYST")
			typ += fmt.Sprintf(" (no ;type=: %q looks like text; TYPE A instead if SYST names a system other "+
				"than UNIX)", loc.Name)
		}
		plan = append(plan, typ)
		ranged := req.Ranged()
		resuming := req.Offset > 0 && tt.t == 'i' && !ranged
		if tt.t == 'i' {
			plan = append(plan, "SIZE "+loc.Name)
		}
		if resuming || timeConditioned(req) {
			plan = append(plan, "MDTM "+loc.Name)
		}
		plan = append(plan, "EPSV")
		switch rec := req.Partial.Record; {
		case ranged && req.Suffix > 0:
			plan = append(plan, fmt.Sprintf("REST (SIZE - %d)", req.Suffix))
		case ranged && req.Offset > 0, resuming && (rec == nil || rec.Mode != "A"):
			plan = append(plan, "REST "+strconv.FormatInt(req.Offset, 10))
		}
		plan = append(plan, "RETR "+loc.Name)
		if req.Length > 0 {
			plan = append(plan, fmt.Sprintf("ABOR after %d bytes", req.Length))
		}
	}
	plan = append(plan, "QUIT")
	return plan, nil
}
