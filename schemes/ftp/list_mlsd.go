package ftp

import (
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// parseMLSD reads MLSD lines (RFC 3659 §7): "fact=value;...; name". The
// current and parent directory entries (type=cdir, pdir) are dropped; a
// line without the space before the name is kept raw.
func parseMLSD(lines []string) []schemes.Entry {
	var out []schemes.Entry
	for _, l := range lines {
		facts, name, ok := strings.Cut(l, " ")
		if !ok || name == "" {
			out = append(out, schemes.Entry{Name: l, Kind: schemes.EntryRaw, Size: -1, Raw: l})
			continue
		}
		e := schemes.Entry{Name: name, Kind: schemes.EntryOther, Size: -1, Raw: l}
		skip := false
		for _, f := range strings.Split(facts, ";") {
			k, v, _ := strings.Cut(f, "=")
			switch strings.ToLower(k) {
			case "type":
				lv := strings.ToLower(v)
				switch {
				case lv == "file":
					e.Kind = schemes.EntryFile
				case lv == "dir":
					e.Kind = schemes.EntryDir
				case lv == "cdir" || lv == "pdir":
					skip = true
				case strings.HasPrefix(lv, "os.unix=slink") || strings.HasPrefix(lv, "os.unix=symlink"):
					e.Kind = schemes.EntryLink
					if _, t, ok := strings.Cut(v, ":"); ok {
						e.Target = t
					}
				}
			case "size":
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					e.Size = n
				}
			case "modify":
				if t, ok := parseMDTM(v); ok {
					e.ModTime = t
				}
			}
		}
		if !skip {
			out = append(out, e)
		}
	}
	return out
}
