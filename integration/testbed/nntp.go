package testbed

// Newsgroups created on the INN server (besides INN's defaults
// control*, junk and local.general).
const (
	// GroupTest is local.test.
	GroupTest = "local.test"
	// GroupMisc is local.misc.
	GroupMisc = "local.misc"
	// GroupWWW is comp.infosystems.www.misc.
	GroupWWW = "comp.infosystems.www.misc"
)

// Message-IDs of the articles seeded at container start (their files are
// integration/servers/inn2/articles/*.art; headers Date, Path, Injection-*
// are added by the server).
const (
	// MsgDots is in local.test; its body has lines ".", "..", ".leading dot".
	MsgDots = "<lf-dots@urlget.test>"
	// MsgReply is in local.test and answers MsgDots (References: MsgDots).
	MsgReply = "<reply-1@urlget.test>"
	// MsgCross is cross-posted to local.test and local.misc.
	MsgCross = "<cross-1@urlget.test>"
	// MsgLongHeader is in local.misc; its X-Long-Header is folded over several
	// lines and longer than 1000 characters in total.
	MsgLongHeader = "<long-header@urlget.test>"
	// MsgWWW is in comp.infosystems.www.misc.
	MsgWWW = "<www-1@urlget.test>"
)

// SeededArticles lists the seeded Message-IDs in posting order.
var SeededArticles = []string{MsgDots, MsgReply, MsgCross, MsgLongHeader, MsgWWW}
