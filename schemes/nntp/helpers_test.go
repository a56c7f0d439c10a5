package nntp

import (
	"errors"
	"reflect"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// sameGeneric compares the generic parts. Path and Opaque are left out:
// they are kept escaped as written, and String may write a different but
// equivalent escaping.
func sameGeneric(a, b *schemes.URL) bool {
	return a.Scheme == b.Scheme && a.Authority == b.Authority && reflect.DeepEqual(a.User, b.User) &&
		reflect.DeepEqual(a.Password, b.Password) && a.Host == b.Host && a.Port == b.Port &&
		reflect.DeepEqual(a.Fragment, b.Fragment)
}

func ptr(s string) *string { return &s }

// checkUsage fails unless err is a KindUsage *schemes.Error naming part.
func checkUsage(t *testing.T, err error, part string) {
	t.Helper()
	var e *schemes.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *schemes.Error", err)
	}
	if e.Kind != schemes.KindUsage || e.Part != part {
		t.Errorf("err = %v (kind %v part %q), want kind usage part %q", err, e.Kind, e.Part, part)
	}
}
