// Package all is the list of the schemes urlget knows: one line a
// scheme. It registers nothing by itself; its callers build registries,
// flags and help from what Declarations returns.
package all

import (
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/file"
	"github.com/urlget/urlget/schemes/finger"
	"github.com/urlget/urlget/schemes/ftp"
	"github.com/urlget/urlget/schemes/gemini"
	"github.com/urlget/urlget/schemes/gopher"
	"github.com/urlget/urlget/schemes/http"
	"github.com/urlget/urlget/schemes/ldap"
	"github.com/urlget/urlget/schemes/mailto"
	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/schemes/prospero"
	"github.com/urlget/urlget/schemes/sftp"
	"github.com/urlget/urlget/schemes/telnet"
	"github.com/urlget/urlget/schemes/wais"
	"github.com/urlget/urlget/schemes/z3950"
)

// Declarations returns every scheme's declaration, in the order their
// help sections are shown: all ten schemes of RFC 1738 and their TLS and
// draft variants, then their living relatives (finger, gemini, sftp) and Z39.50
// (RFC 2056), WAIS's successor.
func Declarations() []schemes.Declaration {
	return []schemes.Declaration{
		file.Declaration(),
		http.Declaration(),
		ftp.Declaration(),
		gopher.Declaration(),
		mailto.Declaration(),
		nntp.Declaration(),
		telnet.Declaration(),
		wais.Declaration(),
		prospero.Declaration(),
		finger.Declaration(),
		gemini.Declaration(),
		sftp.Declaration(),
		z3950.Declaration(),
		ldap.Declaration(),
	}
}
