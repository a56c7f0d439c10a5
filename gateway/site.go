package gateway

import (
	"fmt"
	"net/http"
)

// foreign applies the gateway's resource-isolation policy, read from the
// Fetch Metadata a browser sends (Sec-Fetch-Site, Sec-Fetch-Mode,
// Sec-Fetch-Dest), to r, an origin-form request: it returns why r is
// refused, or "" when it may be served.
//
// A request from the gateway's own pages (same-origin) or from the
// person (none: the address bar, a bookmark) is served. Any other site
// (cross-site, and same-site too: a page on another port of 127.0.0.1
// is the same site but another origin, one the gateway does not trust
// more) may only send a person here: a top-level navigation (mode
// navigate, destination document) by GET or HEAD that a person started
// (Sec-Fetch-User: ?1, a link clicked), not one a script made by itself
// (location = …, a form submitted by script). Everything else such a page can make a browser request —
// an image, a script, a style sheet, a fetch() (no-cors or not), a
// frame, an embed or object, a prefetch — is refused before the URL is
// even read, so that no page can make the gateway retrieve, and so send
// bytes to a server, behind the person's back. A sandboxed document
// (what the gateway serves from a server) has an origin of its own, so
// its images and frames are refused too; its links lead on.
//
// Without Sec-Fetch-Site (curl, scripts, a browser older than 2020, or
// one that sends none because the gateway's address is neither https
// nor loopback) the Host check and the cross-origin check of POSTs
// judge the request, as before.
func foreign(r *http.Request) string {
	site := r.Header.Get("Sec-Fetch-Site")
	switch site {
	case "", "same-origin", "none":
		return ""
	}
	mode, dest := r.Header.Get("Sec-Fetch-Mode"), r.Header.Get("Sec-Fetch-Dest")
	getOrHead := r.Method == http.MethodGet || r.Method == http.MethodHead
	if mode == "navigate" && dest == "document" && getOrHead && r.Header.Get("Sec-Fetch-User") == "?1" {
		return ""
	}
	var what string
	switch {
	case mode == "navigate" && dest == "document" && getOrHead:
		what = "a navigation no person started (no Sec-Fetch-User: ?1)" // a script's location = …
	case mode == "navigate" && dest == "document":
		what = "a " + r.Method + " navigation" // a form's POST
	case mode == "navigate":
		what = "a page in a frame (" + dest + ")" // iframe, frame, embed, object
	case dest != "" && dest != "empty":
		what = "a sub-resource (" + dest + ")" // image, script, style, …
	case mode != "":
		what = "a " + mode + " request" // fetch(), XMLHttpRequest, a prefetch
	default:
		what = "a request"
	}
	return fmt.Sprintf("a page of another origin (Sec-Fetch-Site: %s) asked for this as %s; "+
		"from another site the gateway serves only a link a person follows (a top-level GET they started), so that no page can make it retrieve behind their back", site, what)
}

// foreignPage refuses a request foreign refused for why: 403 and a short
// page saying why, with nothing of its URL read or retrieved.
func (s *Server) foreignPage(w http.ResponseWriter, why string) {
	pageHeaders(w.Header())
	w.WriteHeader(http.StatusForbidden)
	pages().ExecuteTemplate(w, "error", struct{ URL, Msg, Search string }{"cross-site request refused", why, ""})
}
