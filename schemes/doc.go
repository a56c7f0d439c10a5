// Package schemes is the contract shared by every URL scheme urlget supports.
//
// A program meets it in what package fetch returns: a failure is an *Error
// whose Kind says what went wrong, and a listing streams Entry values:
//
//	resp, err := c.List(ctx, "ftp://ftp.example/pub/") // c is a fetch.Client
//	if err != nil {
//		return err // schemes.KindOf(err) is KindNotFound, KindPermission, ...
//	}
//	defer resp.Close()
//	for e, err := range schemes.Entries(resp.Listing) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(e.Kind, e.Size, e.Name)
//	}
//
// It also parses, compares and resolves URLs (Parse, Canonical, Equivalent,
// Resolve, Extract), and is what a new scheme implements (Adding a scheme,
// below).
//
// It holds the URL model of RFC 1738 (generic syntax, the common Internet
// scheme syntax of §3.1, escaping, canonical form, relative resolution and
// extraction from free text), the Handler and Lister interfaces that scheme
// packages implement, the Request and Response they exchange, the one Error
// type every layer returns, and an explicit Registry. It contains no protocol
// code and never touches the network: each scheme lives in its own package
// under schemes/<name>, and only package transport dials.
//
// # Adding a scheme
//
// An eleventh scheme is its own package and a few lines elsewhere; every
// place it touches is listed here, so that none is found by accident.
//
//   - schemes/<name>: its syntax (Parse from the generic URL into a typed
//     Locator whose String is canonical, whose Redacted hides the
//     password and whose LocalName suggests a file name; TreePather when
//     its url-path holds more than the place in the server's tree;
//     Parented when its tree is not spelled with "/" (an LDAP DN);
//     URL.SyntaxError for what does not parse), its
//     access algorithm (a Handler and Explainer; a Lister or Stater if it
//     lists or describes, taking its typed URL with LocatorOf; logins from
//     the URL, else Request.Credentials, never a file of its own; with
//     the TLS capability, Request.RequireTLS honoured; connections from
//     Request.Dialer bound with transport.Bound, and sessions worth keeping
//     leased from and kept in Request.Conns under a NewConnKey, never a
//     pool of its own; errors without the URL, which fetch adds), and a
//     Schemes function returning its Scheme values with their Caps, which
//     the Registry checks against the handler; and its Declaration: its
//     names (with the TLS variant's Of), ports (its parser gives each
//     URL its declared port as URL.DefaultPort, PortOf; the dialer's
//     port policy reads them from the Registry), whether its URLs are
//     opaque, its options (each becomes a flag of the command and a
//     section of its --help), and New, building the handler from them.
//   - schemes/all: one line in Declarations. fetch, the gateway and the
//     command read every scheme from there.
//   - schemes/extract.go, its name among the schemes found in free text,
//     if it is one of RFC 1738's.
//   - integration/: a real server in docker-compose.yml (or, where none is
//     packaged, a test server written from the protocol's notes, sharing
//     no code with the client) and a conformance Target for it.
//   - README.md: its row in the schemes table and its flags.
//
// The fetch Client and the mirror never switch on scheme names: they read
// the capabilities (Caps: Lists, Crawls, Conditional, Resumes, ...). Nor
// does the command's retrieval: -O takes the Locator's LocalName.
package schemes
