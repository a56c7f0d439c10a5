package schemes

import (
	"errors"
	"strings"
	"testing"
)

// myLoc is a Locator type of a made-up scheme, for LocatorOf.
type myLoc struct{ u *URL }

func (m *myLoc) Generic() *URL     { return m.u }
func (m *myLoc) String() string    { return "my:" }
func (m *myLoc) Redacted() string  { return "my:" }
func (m *myLoc) Fields() any       { return nil }
func (m *myLoc) LocalName() string { return "" }

func TestLocatorOf(t *testing.T) {
	mine := &myLoc{u: &URL{Scheme: "my"}}
	other := &myLoc{u: &URL{Scheme: "other"}}
	var nilMine *myLoc
	for _, tc := range []struct {
		name string
		url  Locator
		want string // a substring of the error; "" for none
	}{
		{"its own type", mine, ""},
		{"another value of its type", other, ""},
		{"a nil pointer of its type", nilMine, "handler given a *schemes.myLoc, want *schemes.myLoc"},
		{"no URL", nil, "handler given a <nil>, want *schemes.myLoc"},
	} {
		got, err := LocatorOf[*myLoc](&Request{URL: tc.url})
		switch {
		case tc.want == "" && (err != nil || got != tc.url):
			t.Errorf("%s: %v, %v", tc.name, got, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || KindOf(err) != KindOther):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
	// A Locator of another type names the scheme it came from.
	type otherType struct{ myLoc }
	_, err := LocatorOf[*myLoc](&Request{URL: &otherType{myLoc{u: &URL{Scheme: "ftp"}}}})
	var se *Error
	if !errors.As(err, &se) || se.Scheme != "ftp" || !strings.Contains(se.Msg, "want *schemes.myLoc") {
		t.Errorf("another type: %v", err)
	}
}
