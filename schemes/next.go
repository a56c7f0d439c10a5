package schemes

import "context"

// nextKey is the context key of WithNext.
type nextKey struct{}

// WithNext returns a context for the request of one URL that also says
// which URLs the caller will request next, in this order, one after
// another: a handler whose scheme Pipelines sends their requests ahead
// (see Pipelines); others ignore it. It is a hint, never a promise: a
// URL the caller then skips only wastes what was sent for it.
func WithNext(ctx context.Context, next []Locator) context.Context {
	if len(next) == 0 {
		return ctx
	}
	return context.WithValue(ctx, nextKey{}, next)
}

// NextOf returns the URLs WithNext put in ctx, nil when there are none.
// The slice is the caller's: a handler reads it and does not keep it.
func NextOf(ctx context.Context) []Locator {
	next, _ := ctx.Value(nextKey{}).([]Locator)
	return next
}
