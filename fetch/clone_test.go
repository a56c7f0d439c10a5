package fetch

import (
	"reflect"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestCloneCopiesEverySetting sets every exported field of a Client to a
// value other than its zero and checks the clone has each: a field added
// to Client but not to Clone fails here.
func TestCloneCopiesEverySetting(t *testing.T) {
	c := &Client{}
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if !v.Type().Field(i).IsExported() {
			continue
		}
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 7))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
		case reflect.Func:
			f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value {
				out := make([]reflect.Value, f.Type().NumOut())
				for j := range out {
					out[j] = reflect.Zero(f.Type().Out(j))
				}
				return out
			}))
		case reflect.Interface:
			// Set below with a concrete value of the interface.
		default:
			t.Fatalf("field %s of kind %s: teach this test to set it", v.Type().Field(i).Name, f.Kind())
		}
	}
	c.Dialer = &transport.Dialer{}
	c.Conns = &transport.Pool{}
	c.Trace = schemes.NopTrace{}
	c.RetryDelay = 3 * time.Second
	n := c.Clone()
	nv := reflect.ValueOf(n).Elem()
	for i := 0; i < v.NumField(); i++ {
		ft := v.Type().Field(i)
		if !ft.IsExported() {
			continue
		}
		a, b := v.Field(i), nv.Field(i)
		if a.IsZero() {
			t.Errorf("field %s: the test left it zero", ft.Name)
			continue
		}
		if a.Kind() == reflect.Func {
			if b.Pointer() != a.Pointer() {
				t.Errorf("field %s not copied", ft.Name)
			}
			continue
		}
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			t.Errorf("field %s not copied", ft.Name)
		}
	}
}

// TestCloneSharesThePool: a clone of a Client without Conns uses the
// original's own pool, so sessions idle in one serve the other.
func TestCloneSharesThePool(t *testing.T) {
	c := &Client{}
	n := c.Clone()
	if n.Conns != schemes.Conns(&c.pool) {
		t.Fatalf("the clone's Conns is %v, not the original's pool", n.Conns)
	}
	if n.conns() != c.conns() {
		t.Fatal("the clone leases from another pool")
	}
}
