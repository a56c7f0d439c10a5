package z3950

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// MARC records (ISO 2709, as USMARC/MARC 21 use it), rendered as text the
// way yaz-client's "show" and yaz-marcdump write them (YAZ's "line"
// format): the leader; a control field as "tag data"; a data field as
// "tag ind1ind2" and " $code data" for each subfield; a blank line after
// the record. Bytes are written as received: no character set is
// converted.

// ISO 2709's separators.
const (
	marcSubfield  = 0x1f // IS1: before each subfield code
	marcField     = 0x1e // IS2: ends each field and the directory
	marcRecord    = 0x1d // IS3: ends the record
	marcLeaderLen = 24
)

// marcText renders one ISO 2709 record as text.
func marcText(rec []byte) ([]byte, error) {
	if len(rec) < marcLeaderLen+1 {
		return nil, fmt.Errorf("MARC record of %d bytes: shorter than its leader", len(rec))
	}
	leader := rec[:marcLeaderLen]
	base, err := strconv.Atoi(string(leader[12:17]))
	if err != nil || base <= marcLeaderLen || base > len(rec) {
		return nil, fmt.Errorf("MARC record with a bad base address %q", leader[12:17])
	}
	indicators := int(leader[10] - '0')
	idLen := int(leader[11] - '0')
	if indicators < 0 || indicators > 9 {
		indicators = 2
	}
	if idLen < 1 || idLen > 9 {
		idLen = 2
	}
	lenLen, startLen := int(leader[20]-'0'), int(leader[21]-'0')
	if lenLen < 1 || lenLen > 9 || startLen < 1 || startLen > 9 {
		lenLen, startLen = 4, 5
	}
	entry := 3 + lenLen + startLen
	var b bytes.Buffer
	b.Write(leader)
	b.WriteByte('\n')
	dir := rec[marcLeaderLen : base-1]
	for len(dir) >= entry {
		tag := dir[:3]
		l, err1 := strconv.Atoi(string(dir[3 : 3+lenLen]))
		at, err2 := strconv.Atoi(string(dir[3+lenLen : entry]))
		dir = dir[entry:]
		if err1 != nil || err2 != nil || l < 0 || at < 0 || base+at+l > len(rec) {
			return nil, fmt.Errorf("MARC record with a bad directory entry for tag %q", tag)
		}
		data := bytes.TrimSuffix(rec[base+at:base+at+l], []byte{marcField})
		b.Write(tag)
		b.WriteByte(' ')
		if bytes.HasPrefix(tag, []byte("00")) {
			b.Write(data)
			b.WriteByte('\n')
			continue
		}
		if len(data) < indicators {
			return nil, fmt.Errorf("MARC field %s shorter than its indicators", tag)
		}
		b.Write(data[:indicators])
		for _, sf := range bytes.Split(data[indicators:], []byte{marcSubfield})[1:] {
			code := sf
			if len(code) > idLen-1 {
				code = sf[:idLen-1]
			}
			b.WriteString(" $")
			b.Write(code)
			b.WriteByte(' ')
			b.Write(sf[len(code):])
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// marcTitle is a record's title for a listing: 245 $a (and $b), else "".
func marcTitle(rec []byte) string {
	return marcSubfields(rec, "245", "ab")
}

// marcControl is the data of a control field (001: the control number),
// "" when the record has none.
func marcControl(rec []byte, tag string) string {
	return marcSubfields(rec, tag, "")
}

// marcSubfields is the data of tag's first field: a control field's data
// (codes ""), else the named subfields joined by spaces.
func marcSubfields(rec []byte, tag, codes string) string {
	if len(rec) < marcLeaderLen+1 {
		return ""
	}
	base, err := strconv.Atoi(string(rec[12:17]))
	if err != nil || base <= marcLeaderLen || base > len(rec) {
		return ""
	}
	const entry = 12
	for dir := rec[marcLeaderLen : base-1]; len(dir) >= entry; dir = dir[entry:] {
		if string(dir[:3]) != tag {
			continue
		}
		l, err1 := strconv.Atoi(string(dir[3:7]))
		at, err2 := strconv.Atoi(string(dir[7:12]))
		if err1 != nil || err2 != nil || l < 0 || at < 0 || base+at+l > len(rec) {
			return ""
		}
		data := bytes.TrimSuffix(rec[base+at:base+at+l], []byte{marcField})
		if codes == "" {
			return string(data)
		}
		var parts [][]byte
		for _, sf := range bytes.Split(data, []byte{marcSubfield})[1:] {
			if len(sf) > 0 && bytes.IndexByte([]byte(codes), sf[0]) >= 0 {
				parts = append(parts, bytes.TrimSpace(sf[1:]))
			}
		}
		return string(bytes.Join(parts, []byte(" ")))
	}
	return ""
}

// marcXML reads a MARCXML record as a listing does a MARC one: its title
// as marcTitle reads it (the text of the first datafield 245's subfields
// a and b) and its control number (the text of its controlfield 001, as
// marcControl); each "" when the record has none or is in another
// syntax.
func marcXML(rec record) (title, control string) {
	if !rec.syntax.Equal(oidXML) && !rec.syntax.Equal(oidApplXML) {
		return "", ""
	}
	d := xml.NewDecoder(bytes.NewReader(rec.data))
	var parts []string
	// The first 001 and the first 245 only, as marcControl and marcTitle;
	// the 001 once its element ends (a record cut short names none).
	var in001, seen001, in245, seen245 bool
	code, text001 := "", ""
	for {
		tok, err := d.Token()
		if err != nil {
			return strings.Join(parts, " "), control
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "controlfield":
				in001 = attr(t, "tag") == "001" && !seen001
				seen001 = seen001 || in001
			case "datafield":
				in245 = attr(t, "tag") == "245" && !seen245
				seen245 = seen245 || in245
			case "subfield":
				code = attr(t, "code")
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "controlfield":
				if in001 {
					control = text001
				}
				in001 = false
			case "datafield":
				in245 = false
			}
			code = ""
		case xml.CharData:
			switch {
			case in001:
				text001 += string(t)
			case in245 && (code == "a" || code == "b"):
				parts = append(parts, strings.TrimSpace(string(t)))
			}
		}
	}
}

// attr is the value of start's attribute name, "" without one.
func attr(start xml.StartElement, name string) string {
	for _, a := range start.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
