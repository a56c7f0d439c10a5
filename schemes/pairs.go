package schemes

import (
	"bytes"
	"encoding/json"
)

// NameValue is one "name=value" pair a URL carries as data: a mailto header
// field (RFC 6068), a prospero field (RFC 1738 §3.11). Both are decoded.
type NameValue struct {
	Name  string
	Value string
}

// OrderedObject marshals as a JSON object whose members keep the order in
// which the names first appear, which a Go map would lose. A repeated name
// becomes one member whose value is the array of its values, so nothing is
// dropped.
type OrderedObject []NameValue

// MarshalJSON writes the object.
func (o OrderedObject) MarshalJSON() ([]byte, error) {
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
