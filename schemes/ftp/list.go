package ftp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// maxListing bounds a directory listing held in memory.
const maxListing = 64 << 20

// listing retrieves a directory: NLST for ";type=d" (with the name as its
// argument, none when the name is empty), else MLSD when the server offers
// it (FEAT) and LIST otherwise, parsed into entries.
func (h *Handler) listing(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request, cmd string) (*schemes.Response, error) {
	if cmd == "" {
		cmd = "LIST"
		// RFC 3659 §7.8: a server offering MLST offers MLSD too (proftpd
		// lists only MLST).
		if c.hasFeature(ctx, "MLSD") || c.hasFeature(ctx, "MLST") {
			cmd = "MLSD"
		}
	} else if loc.Name != "" {
		cmd += " " + loc.Name
	}
	if err := c.simple(ctx, loc, "type", "TYPE A"); err != nil {
		return nil, err
	}
	dc, err := c.openData(ctx, loc, req.Dialer)
	if err != nil {
		return nil, err
	}
	dc, rp, err := c.transfer(ctx, loc, dc, "list", cmd)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(dc, maxListing+1))
	dc.Close()
	if err != nil {
		c.broken = true
		e := ioError(ctx, loc, "list", err)
		return nil, e
	}
	if len(data) > maxListing {
		c.broken = true
		return nil, protoError(loc, "list", fmt.Sprintf("listing longer than %d bytes", maxListing), nil)
	}
	if err := c.endTransfer(ctx, loc, "list", cmd); err != nil {
		c.broken = true
		return nil, err
	}
	lines := splitLines(data)
	var entries []schemes.Entry
	switch {
	case strings.HasPrefix(cmd, "NLST"):
		entries = nlstEntries(lines)
	case cmd == "MLSD":
		entries = parseMLSD(lines)
	default:
		entries = parseList(lines, time.Now())
	}
	if cmd == "MLSD" || cmd == "LIST" {
		g := *loc.u
		g.Fragment = nil
		base := (&URL{Cwd: loc.Cwd, u: &g}).Redacted()
		for i := range entries {
			if entries[i].Kind == schemes.EntryRaw {
				continue
			}
			u := base + schemes.Escape(entries[i].Name, segmentReserved)
			if entries[i].Kind == schemes.EntryDir {
				u += "/"
			}
			entries[i].URL = u
		}
	}
	if entries == nil {
		entries = []schemes.Entry{}
	}
	text := render(entries, h.Long)
	h.pool.put(c)
	return &schemes.Response{Body: io.NopCloser(strings.NewReader(text)), Size: int64(len(text)), Name: loc.Name,
		Entries: entries, Status: rp.Code, Type: "text/plain"}, nil
}

// hasFeature asks FEAT once per connection (RFC 2389) and reports whether
// the server lists feature.
func (c *ctrl) hasFeature(ctx context.Context, feature string) bool {
	if c.feat == nil {
		c.feat = map[string]string{}
		rp, err := c.cmd("FEAT")
		if err == nil && rp.Code == 211 {
			for _, l := range rp.Lines[1:] {
				if !strings.HasPrefix(l, " ") {
					continue
				}
				name, params, _ := strings.Cut(strings.TrimSpace(l), " ")
				c.feat[strings.ToUpper(name)] = params
			}
		}
	}
	_, ok := c.feat[feature]
	return ok
}

// splitLines splits listing data into lines, dropping CR and empty lines.
func splitLines(data []byte) []string {
	var out []string
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(l) > 0 {
			out = append(out, string(l))
		}
	}
	return out
}

// nlstEntries turns NLST's names into entries of unknown kind and size.
func nlstEntries(lines []string) []schemes.Entry {
	out := make([]schemes.Entry, 0, len(lines))
	for _, l := range lines {
		out = append(out, schemes.Entry{Name: l, Kind: schemes.EntryOther, Size: -1})
	}
	return out
}

// parseList parses LIST output, each line by the first format that reads
// it (unix ls, DOS/IIS, EPLF, VMS). A line none reads is kept as a raw
// entry; ".", ".." and "total" lines are dropped.
func parseList(lines []string, now time.Time) []schemes.Entry {
	var out []schemes.Entry
	for _, l := range lines {
		if strings.HasPrefix(l, "total ") {
			continue
		}
		e, ok := parseUnix(l, now)
		if !ok {
			e, ok = parseDOS(l)
		}
		if !ok {
			e, ok = parseEPLF(l)
		}
		if !ok {
			e, ok = parseVMS(l)
		}
		if !ok {
			e = schemes.Entry{Name: l, Kind: schemes.EntryRaw, Size: -1, Raw: l}
		} else if e.Name == "." || e.Name == ".." {
			continue
		}
		out = append(out, e)
	}
	return out
}

// render formats entries for people: one name a line, or with long like
// ls -l (kind, size, time, name, link target). Raw entries show their line.
func render(entries []schemes.Entry, long bool) string {
	var b strings.Builder
	for _, e := range entries {
		if e.Kind == schemes.EntryRaw {
			b.WriteString(e.Raw)
			b.WriteByte('\n')
			continue
		}
		if !long {
			b.WriteString(e.Name)
			b.WriteByte('\n')
			continue
		}
		kind := map[schemes.EntryKind]string{schemes.EntryDir: "d", schemes.EntryLink: "l", schemes.EntryFile: "-"}[e.Kind]
		if kind == "" {
			kind = "?"
		}
		size := "-"
		if e.Size >= 0 {
			size = fmt.Sprint(e.Size)
		}
		mt := "                 "
		if !e.ModTime.IsZero() {
			mt = e.ModTime.UTC().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(&b, "%s %12s %-16s %s", kind, size, mt, e.Name)
		if e.Target != "" {
			b.WriteString(" -> " + e.Target)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
