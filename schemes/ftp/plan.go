package ftp

import (
	"slices"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// plan is the commands a request will send on c, in order, for a batch
// (pipeline.go): only those it sends whatever the replies before them say.
type plan func(c *ctrl, loc *URL) []string

// chdirPlan is what chdir sends to reach loc's directory.
func chdirPlan(c *ctrl, loc *URL) []string {
	var lines []string
	at := c.at
	if len(at) > len(loc.Cwd) || !slices.Equal(at, loc.Cwd[:len(at)]) {
		if c.loginDir == "" {
			return nil // chdir fails before any CWD
		}
		lines, at = append(lines, "CWD "+c.loginDir), nil
	}
	for _, seg := range loc.Cwd[len(at):] {
		lines = append(lines, "CWD "+seg)
	}
	return lines
}

// fetchPlan is what Fetch sends before RETR, by retr's own decisions: the
// CWDs, TYPE, SIZE and MDTM when they are asked, and EPSV when no passive
// port is at hand and RETR will follow. When the TYPE waits for SYST's
// reply, the plan ends with SYST (retr plans again once it is in).
// Listings get the CWDs.
func (h *Handler) fetchPlan(req *schemes.Request) plan {
	return func(c *ctrl, loc *URL) []string {
		lines := chdirPlan(c, loc)
		if loc.Type == 'd' || loc.Name == "" {
			return lines
		}
		tt := h.transferType(loc, partOf(req), req.Exact)
		if tt.askSystem && !c.systAsked {
			return append(lines, "SYST") // TYPE depends on its reply: retr sends the rest together then
		}
		if tt.askSystem {
			tt = tt.bySystem(loc.Name, c.syst, c.syst.Code == codeSystemType, h.words)
		}
		if c.typ != tt.t {
			lines = append(lines, "TYPE "+strings.ToUpper(string(tt.t)))
		}
		if tt.t == 'a' && req.Ranged() {
			return lines // refused after TYPE
		}
		if c.asksSize(tt.t, req) {
			lines = append(lines, "SIZE "+loc.Name)
		}
		if asksModTime(tt.t, req) {
			lines = append(lines, "MDTM "+loc.Name)
		}
		// A time condition met spares RETR, and the EPSV with it.
		if !c.hasAhead() && !c.noEPSV && !timeConditioned(req) {
			lines = append(lines, "EPSV")
		}
		return lines
	}
}

// asksSize says whether retr asks SIZE of a file in TYPE t (TYPE I only:
// an ASCII size is the server's, not ours): for a resumed transfer or a
// range, else while the server's 150 reply has not shown that its "(N
// bytes)" tells the size and no listing told it (a mirror's Request.Listed
// spares the round trip: the caller checks the data against it).
func (c *ctrl) asksSize(t byte, req *schemes.Request) bool {
	resuming := req.Offset > 0 && t == 'i' && !req.Ranged()
	listed := req.Listed != nil && req.Listed.Size >= 0
	return t == 'i' && !c.noSIZE && (resuming || req.Ranged() || (c.count150 != yes && !listed))
}

// asksModTime says whether retr asks MDTM: the resume rule compares the
// remote's time with the partial copy's, the time conditions compare it
// with theirs, and -R gives it to the file; a plain download does not
// need it (Request.WantModTime).
func asksModTime(t byte, req *schemes.Request) bool {
	resuming := req.Offset > 0 && t == 'i' && !req.Ranged()
	return resuming || req.WantModTime || timeConditioned(req)
}
