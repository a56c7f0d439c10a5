package gopher

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"

	"github.com/urlget/urlget/schemes"
)

// askAgain is what a plain menu keeps so that, when it ends without its
// "." line, the same item can be asked again the Gopher+ way (`sel TAB +`)
// to learn where it ends. A Gopher+ server that never ends a plain menu
// with "." (pygopherd) answers that request with a header — `+N`, `+-1`
// or `+-2` — whose end the protocol defines; a plain server answers it
// without one, and its menu stays one that may be cut short. Only the
// lines' digest is kept, so a menu of millions of items is still streamed.
type askAgain struct {
	req  *schemes.Request
	line string    // the Gopher+ request
	n    int       // the plain reply's items so far
	sum  hash.Hash // of their lines, in order
}

// add counts it, one item of the plain reply, and its line.
func (a *askAgain) add(it menuItem) {
	a.n++
	a.sum.Write([]byte(it.Raw))
	a.sum.Write([]byte{'\n'})
}

// askAgain sends the Gopher+ request once, after the plain reply ended at
// the server's close without its "." line, and reads as many items from
// its reply as the plain one gave. When they are the same lines, the
// listing goes on from the Gopher+ reply — its further items, if the
// plain one was cut, then its end as its header says — and askAgain
// reports true. Otherwise (no Gopher+ header, an error, other items) it
// closes that connection, says why in the trace and reports false: the
// plain menu may be cut short.
func (l *menuListing) askAgain() bool {
	a := l.again
	if a == nil {
		return false
	}
	l.again = nil // once
	l.tr.Info(`menu ended without a "." line: asking again the Gopher+ way, whose header says where it ends`)
	x, err := l.h.exchange(l.ctx, a.req, l.g, a.line, true)
	if err != nil {
		l.tr.Info("the Gopher+ request failed: " + err.Error())
		return false
	}
	if !x.plus {
		x.c.Close()
		return false // the trace said so: a plain reply again
	}
	m := newMenuReader(bodyReader(x.br, x.hdr))
	sum := sha256.New()
	for i := 0; i < a.n; i++ {
		it, err := m.next()
		if err != nil {
			x.c.Close()
			x.tr.Info(fmt.Sprintf("the Gopher+ reply holds %d items, fewer than the %d of the plain one", i, a.n))
			return false
		}
		sum.Write([]byte(it.Raw))
		sum.Write([]byte{'\n'})
	}
	if !bytes.Equal(sum.Sum(nil), a.sum.Sum(nil)) {
		x.c.Close()
		x.tr.Info("the Gopher+ reply lists other items than the plain one")
		return false
	}
	l.c, l.m, l.tr, l.done = x.c, m, x.tr, false
	l.plus, l.exact = true, x.hdr.Length >= 0
	return true
}
