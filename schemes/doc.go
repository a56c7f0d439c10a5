// Package schemes is the contract shared by every URL scheme urlget supports.
//
// It holds the URL model of RFC 1738 (generic syntax, the common Internet
// scheme syntax of §3.1, escaping, canonical form, relative resolution and
// extraction from free text), the Handler and Lister interfaces that scheme
// packages implement, the Request and Response they exchange, the one Error
// type every layer returns, and an explicit Registry. It contains no protocol
// code and never touches the network: each scheme lives in its own package
// under schemes/<name>, and only package transport dials.
package schemes
