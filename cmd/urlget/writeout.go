package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// writeOutVars are the values -w/--write-out shows of one transfer, named
// as curl names them. The command fills them after the transfer, whether
// it succeeded or not (curl writes -w after a failure too, with exitcode
// and errormsg set).
type writeOutVars struct {
	// ResponseCode is the server's last reply code: HTTP's status, FTP's,
	// NNTP's and SMTP's reply (schemes.Response.Status); 0 when none came.
	ResponseCode int
	SizeDownload int64
	URL          string // as given, redacted
	URLEffective string // after redirects, redacted
	Scheme       string
	ContentType  string
	// FilenameEffective is the local file written, "" for stdout.
	FilenameEffective string
	NumRedirects      int
	TimeTotal         time.Duration
	ExitCode          int
	ErrorMsg          string // "" on success
	URLNum            int    // the URL's index on the command line, from 0
	// Segments is how many connections carried a download made in
	// segments (--segments), 0 for one.
	Segments int
}

// writeOutNames lists every variable, for %{json} and the unknown-name
// warning; each maps to its text in value.
var writeOutNames = []string{
	"content_type", "errormsg", "exitcode", "filename_effective", "http_code", "num_redirects",
	"response_code", "scheme", "segments", "size_download", "time_total", "url", "url_effective", "urlnum",
}

// value is the variable's text as curl prints it: reply codes in three
// digits ("000" when none), times in seconds with six decimals; ok is
// false for a name urlget does not know.
func (v *writeOutVars) value(name string) (s string, ok bool) {
	switch name {
	case "response_code", "http_code":
		return fmt.Sprintf("%03d", v.ResponseCode), true
	case "size_download":
		return strconv.FormatInt(v.SizeDownload, 10), true
	case "url":
		return v.URL, true
	case "url_effective":
		return v.URLEffective, true
	case "scheme":
		return v.Scheme, true
	case "content_type":
		return v.ContentType, true
	case "filename_effective":
		return v.FilenameEffective, true
	case "num_redirects":
		return strconv.Itoa(v.NumRedirects), true
	case "time_total":
		return fmt.Sprintf("%.6f", v.TimeTotal.Seconds()), true
	case "exitcode":
		return strconv.Itoa(v.ExitCode), true
	case "errormsg":
		return v.ErrorMsg, true
	case "urlnum":
		return strconv.Itoa(v.URLNum), true
	case "segments":
		return strconv.Itoa(v.Segments), true
	}
	return "", false
}

// json is %{json}: every variable in one object, keys sorted as curl
// sorts them, numbers as numbers, and an empty string as null (curl
// writes null for a value it does not have).
func (v *writeOutVars) json() string {
	m := make(map[string]any, len(writeOutNames))
	for _, name := range writeOutNames {
		s, _ := v.value(name)
		switch name {
		case "response_code", "http_code":
			m[name] = v.ResponseCode
		case "size_download":
			m[name] = v.SizeDownload
		case "num_redirects":
			m[name] = v.NumRedirects
		case "exitcode":
			m[name] = v.ExitCode
		case "urlnum":
			m[name] = v.URLNum
		case "segments":
			m[name] = v.Segments
		case "time_total":
			m[name] = json.Number(s)
		default:
			if s == "" {
				m[name] = nil
			} else {
				m[name] = s
			}
		}
	}
	b, _ := json.Marshal(m) // encoding/json sorts map keys
	return string(b)
}

// writeOut writes format for v as curl's -w does: %{name} is a variable,
// %{json} all of them, %{stdout} and %{stderr} switch where the rest goes
// (stdout first), %{onerror} drops the rest unless the transfer failed,
// %% is a %, \n \r \t are escapes; anything else is written as it is. An
// unknown variable is written as nothing, and warn is told its name.
func writeOut(format string, v *writeOutVars, stdout, stderr io.Writer, warn func(string)) {
	w := stdout
	var out strings.Builder
	flush := func() {
		io.WriteString(w, out.String())
		out.Reset()
	}
	defer flush()
	for i := 0; i < len(format); {
		c := format[i]
		switch {
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			out.WriteByte('%')
			i += 2
		case c == '%' && i+1 < len(format) && format[i+1] == '{':
			end := strings.IndexByte(format[i+2:], '}')
			if end < 0 {
				out.WriteString(format[i:])
				return
			}
			name := format[i+2 : i+2+end]
			i += 2 + end + 1
			switch name {
			case "stdout", "stderr":
				flush()
				w = stdout
				if name == "stderr" {
					w = stderr
				}
			case "onerror":
				if v.ExitCode == 0 {
					return
				}
			case "json":
				out.WriteString(v.json())
			default:
				s, ok := v.value(name)
				if !ok {
					warn(name)
				}
				out.WriteString(s)
			}
		case c == '\\' && i+1 < len(format):
			switch format[i+1] {
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			default:
				out.WriteString(format[i : i+2])
			}
			i += 2
		default:
			out.WriteByte(c)
			i++
		}
	}
}

// readWriteOut is the format -w was given: the text itself, or, as with
// curl, "@FILE" for the contents of FILE ("@-": stdin).
func readWriteOut(arg string, stdin io.Reader) (string, error) {
	name, ok := strings.CutPrefix(arg, "@")
	if !ok {
		return arg, nil
	}
	var b []byte
	var err error
	if name == "-" {
		b, err = io.ReadAll(io.LimitReader(stdin, maxWriteOut+1))
	} else {
		var f *os.File
		if f, err = os.Open(name); err == nil {
			b, err = io.ReadAll(io.LimitReader(f, maxWriteOut+1))
			f.Close()
		}
	}
	if err != nil {
		return "", fmt.Errorf("-w %s: %w", arg, err)
	}
	if len(b) > maxWriteOut {
		return "", fmt.Errorf("-w %s: longer than %s", arg, formatBytes(maxWriteOut))
	}
	return string(b), nil
}

// maxWriteOut bounds a -w format read from a file: a format is a line or
// two, and a wrong file name (a disk image) must not be read into memory.
const maxWriteOut = 1 << 20

// writeOutWarning is the note for an unknown variable, naming the ones
// urlget has.
func writeOutWarning(name string) string {
	names := append([]string{"json", "stdout", "stderr", "onerror"}, writeOutNames...)
	sort.Strings(names)
	return fmt.Sprintf("unknown --write-out variable: '%s' (known: %s)", name, strings.Join(names, ", "))
}

// writeOutFor writes -w's format for the i-th URL's transfer, which took
// took and ended with err (nil: success), from its report.
func (o *options) writeOutFor(i int, rep *report, err error, took time.Duration, stdout io.Writer) {
	v := &writeOutVars{ResponseCode: rep.Status, SizeDownload: rep.Bytes, URL: rep.Input, URLEffective: rep.URL,
		Scheme: rep.Scheme, ContentType: rep.Type, NumRedirects: rep.redirects, TimeTotal: took, URLNum: i, Segments: rep.Segments}
	if rep.Output != nil {
		v.FilenameEffective = *rep.Output
	}
	if err != nil {
		v.ExitCode = o.exitFor(err)
		v.ErrorMsg = escapeControls(redactedText(err))
	}
	writeOut(o.writeOut, v, stdout, o.con.w, func(name string) { o.con.say(writeOutWarning(name)) })
}
