package mailto

import (
	"bytes"
	"encoding/json"
)

// orderedHeaders marshals as a JSON object whose members keep the order in
// which the names first appear, which a Go map would lose. A repeated name
// becomes one member whose value is the array of its values.
type orderedHeaders []Header

// MarshalJSON writes the object.
func (o orderedHeaders) MarshalJSON() ([]byte, error) {
	var names []string
	values := map[string][]string{}
	for _, f := range o {
		if _, seen := values[f.Name]; !seen {
			names = append(names, f.Name)
		}
		values[f.Name] = append(values[f.Name], f.Value)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		var v []byte
		if vs := values[name]; len(vs) == 1 {
			v, err = json.Marshal(vs[0])
		} else {
			v, err = json.Marshal(vs)
		}
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
