package schemes

import "time"

// ChangedAfter reports whether a resource last modified at mod, known to
// prec, may have changed after t, compared in whole seconds as HTTP dates
// and curl's time conditions are: whether the latest time mod can stand
// for (a day's listing time stands for all of that day) is after t. A
// resource whose time is unknown (zero) may always have changed.
func ChangedAfter(mod time.Time, prec time.Duration, t time.Time) bool {
	if mod.IsZero() {
		return true
	}
	latest := mod.Add(max(prec, time.Second) - time.Second)
	return latest.Truncate(time.Second).After(t.Truncate(time.Second))
}

// TimeCondition says how req's time conditions judge a resource last
// modified at mod, known to prec, for a handler that learns the time
// before it sends anything (FTP MDTM, a file's mtime): notModified when
// IfModifiedSince is set and the resource did not change after it,
// changed when IfUnmodifiedSince is set and it may have changed after
// it; neither when the resource is to be sent. An unknown time (zero)
// meets both conditions, as with curl: there is nothing to compare. A
// request that continues a partial copy has no conditions.
func (req *Request) TimeCondition(mod time.Time, prec time.Duration) (notModified, changed bool) {
	if mod.IsZero() || req.Partial != (Partial{}) {
		return false, false
	}
	if ims := req.IfModifiedSince; !ims.IsZero() && !ChangedAfter(mod, prec, ims) {
		return true, false
	}
	if ius := req.IfUnmodifiedSince; !ius.IsZero() && ChangedAfter(mod, prec, ius) {
		return false, true
	}
	return false, false
}
