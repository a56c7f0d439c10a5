package schemes

import "context"

// nextKey is the context key of WithNext.
type nextKey struct{}

// nextHint is what WithNext and WithSharedNext put in a context.
type nextHint struct {
	next   []Locator
	shared bool
}

// WithNext returns a context for the request of one URL that also says
// which URLs the caller will request next, in this order, one after
// another: a handler whose scheme Pipelines sends their requests ahead
// (see Pipelines); others ignore it. It is a hint, never a promise: a
// URL the caller then skips only wastes what was sent for it.
func WithNext(ctx context.Context, next []Locator) context.Context {
	if len(next) == 0 {
		return ctx
	}
	return context.WithValue(ctx, nextKey{}, nextHint{next: next})
}

// WithSharedNext is WithNext for URLs that other requests, running at the
// same time, also take from (urlget -Z): which connection fetches which
// of them is not known. A handler may ready what any next request to its
// server needs (FTP's next passive port, NextShared), never send the
// request of a named URL, which another connection may be fetching.
func WithSharedNext(ctx context.Context, next []Locator) context.Context {
	if len(next) == 0 {
		return ctx
	}
	return context.WithValue(ctx, nextKey{}, nextHint{next: next, shared: true})
}

// NextOf returns the URLs WithNext or WithSharedNext put in ctx, nil when
// there are none. The slice is the caller's: a handler reads it and does
// not keep it.
func NextOf(ctx context.Context) []Locator {
	h, _ := ctx.Value(nextKey{}).(nextHint)
	return h.next
}

// NextShared says whether the URLs of NextOf are shared with requests
// running at the same time (WithSharedNext): only work that serves any
// next request of the server may be done ahead.
func NextShared(ctx context.Context) bool {
	h, _ := ctx.Value(nextKey{}).(nextHint)
	return h.shared
}
