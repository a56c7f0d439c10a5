package ftp

import (
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// listParser returns the parser of LIST lines: each line is read by the
// first format that reads it (unix ls, DOS/IIS, EPLF, VMS); a line none
// reads is a raw entry, and "total" lines are dropped. now places unix
// dates that have no year.
func listParser(now time.Time) func(string) parsed {
	return func(line string) parsed {
		if strings.HasPrefix(line, "total ") {
			return parsed{}
		}
		for _, parse := range []func(string) (schemes.Entry, string, bool){
			func(l string) (schemes.Entry, string, bool) { return parseUnix(l, now) },
			parseDOS, parseEPLF, parseVMS,
		} {
			if e, name, ok := parse(line); ok {
				return named(e, name)
			}
		}
		return raw(line)
	}
}

// parseNLST reads an NLST line: a name only, which some servers give as a
// path ("pub/a.txt" for "NLST pub"). The entry's Name is its last segment
// and its Title the whole path; the whole path is what RETR takes.
func parseNLST(line string) parsed {
	if line == "." || line == ".." {
		return parsed{}
	}
	e := schemes.Entry{Kind: schemes.EntryUnknown, Size: -1}
	base := line[strings.LastIndexByte(line, '/')+1:]
	if base != line {
		e.Title = line
	}
	e.SetName(base)
	return parsed{e: e, name: line, ok: true}
}

// parseMLSD reads an MLSD line (RFC 3659 §7): "fact=value;...; name". The
// current and parent directory entries (type=cdir, pdir) are dropped; a
// line without the space before the name is kept raw.
func parseMLSD(line string) parsed {
	facts, name, ok := strings.Cut(line, " ")
	if !ok || name == "" {
		return raw(line)
	}
	e, self := parseFacts(facts)
	if self {
		return parsed{}
	}
	return named(e, name)
}

// parseFacts reads the facts of an MLSD or MLST line: type (file, dir,
// OS.unix=slink:target), size and modify. The current and parent
// directory (type cdir and pdir) are directories too, and self says the
// line was one of them.
func parseFacts(facts string) (e schemes.Entry, self bool) {
	e = schemes.Entry{Kind: schemes.EntryUnknown, Size: -1}
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
				e.Kind, self = schemes.EntryDir, true
			case strings.HasPrefix(lv, "os.unix=slink") || strings.HasPrefix(lv, "os.unix=symlink"):
				e.Kind = schemes.EntryLink
				if _, t, ok := strings.Cut(v, ":"); ok {
					e.Target = t
				}
			}
		case "size":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				e.Size = n
			}
		case "modify":
			if t, prec, ok := parseTimeVal(v); ok {
				e.ModTime, e.Precision = t, prec
			}
		}
	}
	return e, self
}

// named finishes an entry a format read: "." and ".." are dropped, and the
// name becomes Name when it is safe as a local name (else Title).
func named(e schemes.Entry, name string) parsed {
	if name == "." || name == ".." {
		return parsed{}
	}
	e.SetName(name)
	return parsed{e: e, name: name, ok: true}
}

// raw is the entry of a line no parser reads: it names nothing and shows
// the line.
func raw(line string) parsed {
	return parsed{e: schemes.Entry{Kind: schemes.EntryRaw, Title: line, Size: -1}, ok: true}
}

// parseTimeVal reads a time-val of RFC 3659 §2.3, "YYYYMMDDHHMMSS[.sss]"
// in UTC (MLSD's modify fact), and its precision: a second, or finer by
// the digits of the fraction.
func parseTimeVal(s string) (time.Time, time.Duration, bool) {
	whole, frac, hasFrac := strings.Cut(strings.TrimSpace(s), ".")
	t, err := time.Parse("20060102150405", whole)
	if err != nil {
		return time.Time{}, 0, false
	}
	prec := time.Second
	if hasFrac {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		n, err := strconv.Atoi(frac)
		if err != nil || frac == "" || n < 0 {
			return time.Time{}, 0, false
		}
		for range frac {
			prec /= 10
		}
		t = t.Add(time.Duration(n) * prec)
	}
	return t.UTC(), prec, true
}

// parseMDTM reads an MDTM reply's time-val (RFC 3659 §3), to the second:
// what the resume rule compares.
func parseMDTM(s string) (time.Time, bool) {
	t, _, ok := parseTimeVal(s)
	return t.Truncate(time.Second), ok
}
