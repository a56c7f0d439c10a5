package ftp

import (
	"context"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Stat describes the file or directory req.URL names without retrieving
// it, over the same pooled, logged-in connection Fetch uses: with MLST
// (RFC 3659 §7) when FEAT offers it, else with SIZE and MDTM, and when
// SIZE measures nothing, a CWD into the name to tell a directory. A URL
// with an empty name ("ftp://h/pub/") describes the directory its path
// names. Size is the server's count of bytes (TYPE I), whatever typecode
// the URL has. A name that is not there is KindNotFound.
func (h *Handler) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.run(ctx, req, statPlan, func(c *ctrl, loc *URL) (*schemes.Response, error) {
		if err := c.chdir(loc, loc.Cwd); err != nil {
			return nil, err
		}
		resp, err := c.stat(loc, h.pipelines(c))
		if err != nil {
			return nil, err
		}
		name := loc.Name
		if name == "" && len(loc.Cwd) > 0 {
			name = loc.Cwd[len(loc.Cwd)-1]
		}
		resp.Name, _ = schemes.SafeName(name)
		c.release()
		return resp, nil
	})
}

// statPlan is what Stat sends before FEAT's reply decides the rest: the
// CWDs, and FEAT when the session has not asked it.
func statPlan(c *ctrl, loc *URL) []string {
	lines := chdirPlan(c, loc)
	if c.feat == nil {
		lines = append(lines, "FEAT")
	}
	return lines
}

// stat describes loc's name in the current directory (the directory
// itself when the name is empty). With batch, TYPE, SIZE and MDTM go
// together once FEAT has told that MLST is not there (pipeline.go).
func (c *ctrl) stat(loc *URL, batch bool) (*schemes.Response, error) {
	feat, err := c.features(loc)
	if err != nil {
		return nil, err
	}
	if _, mlst := feat["MLST"]; mlst {
		resp, ok, err := c.mlst(loc)
		if ok || err != nil {
			return resp, err
		}
	}
	if loc.Name == "" {
		// The CWDs into it succeeded.
		return &schemes.Response{Kind: schemes.EntryDir, Size: -1}, nil
	}
	if batch {
		var lines []string
		if c.typ != 'i' {
			lines = append(lines, "TYPE I")
		}
		if err := c.sendBatch(append(lines, "SIZE "+loc.Name, "MDTM "+loc.Name)); err != nil {
			return nil, ioError(loc, "stat", err)
		}
	}
	if err := c.setType(loc, 'i'); err != nil {
		return nil, err
	}
	size, err := c.size(loc)
	if err != nil {
		return nil, err
	}
	mtime, err := c.mdtm(loc)
	if err != nil {
		return nil, err
	}
	resp := &schemes.Response{Kind: schemes.EntryFile, Size: size, ModTime: mtime}
	if !mtime.IsZero() {
		resp.Precision = time.Second
	}
	if size >= 0 {
		return resp, nil
	}
	// Nothing SIZE can measure: a directory when CWD enters it. The
	// connection stays there (chdir leaves it for the next URL).
	cmd := "CWD " + loc.Name
	rp, err := c.cmd(cmd)
	switch {
	case err != nil:
		return nil, ioError(loc, "stat", err)
	case rp.Code/100 == 2:
		c.entered(loc.Name)
		resp.Kind = schemes.EntryDir
	case rp.Code == 421, mtime.IsZero():
		return nil, c.replyError(loc, "stat", cmd, rp)
	default:
		// MDTM knows it, yet it is neither a file to measure nor a
		// directory to enter.
		resp.Kind = schemes.EntryUnknown
	}
	return resp, nil
}

// mlst asks MLST for loc's name and reads the facts line of the reply
// (RFC 3659 §7.2). ok is false when the server refused the command for
// another reason than the name (it then falls back to SIZE and MDTM).
func (c *ctrl) mlst(loc *URL) (resp *schemes.Response, ok bool, err error) {
	cmd := "MLST"
	if loc.Name != "" {
		cmd += " " + loc.Name
	}
	rp, err := c.cmd(cmd)
	switch {
	case err != nil:
		return nil, false, ioError(loc, "stat", err)
	case rp.Code == 550 || rp.Code == 421:
		return nil, false, c.replyError(loc, "stat", cmd, rp)
	case rp.Code != 250:
		return nil, false, nil
	}
	for _, l := range rp.Lines[1:] {
		facts, _, found := strings.Cut(strings.TrimPrefix(l, " "), " ")
		if !strings.HasPrefix(l, " ") || !found {
			continue
		}
		e, _ := parseFacts(facts)
		return &schemes.Response{Kind: e.Kind, Size: e.Size, ModTime: e.ModTime, Precision: e.Precision}, true, nil
	}
	return nil, false, protoError(loc, "stat", "MLST reply without facts: "+c.redact(rp.String()), nil)
}
