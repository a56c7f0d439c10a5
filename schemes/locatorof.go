package schemes

import (
	"fmt"
	"reflect"
)

// LocatorOf returns req.URL as the scheme's own Locator type T (a
// handler's *URL), or, when it is another type or a nil pointer, a
// KindOther error naming what the handler was given: a Registry hands a
// handler only its own scheme's values, so the error is a programming
// error of the caller that built the Request.
func LocatorOf[T Locator](req *Request) (T, error) {
	loc, ok := req.URL.(T)
	if ok {
		if v := reflect.ValueOf(loc); v.Kind() != reflect.Pointer || !v.IsNil() {
			return loc, nil
		}
	}
	e := &Error{Phase: "request", Kind: KindOther, Msg: fmt.Sprintf("handler given a %T, want %T", req.URL, loc)}
	if req.URL != nil && !ok {
		e.Scheme = req.URL.Generic().Scheme
	}
	var zero T
	return zero, e
}
