package ftp

import "time"

// abortReplies bounds the replies read before NOOP's: a transfer's
// (426, 226), ABOR's (225, 226), and a few to spare.
const abortReplies = 6

// abortTransfer ends a transfer (a file's, a listing's) whose reader
// stopped early (the data connection already closed) so that the session
// can serve the next request: ABOR (RFC 959 §4.1.3), its replies up to a
// completion (2xx) or refusal (5xx) — the transfer's 426 before it — and
// then NOOP as a marker. Servers differ in what they say (the transfer's
// 426 or 226, ABOR's 225 or 226, in either order), but replies come in
// order, so every reply before NOOP's 200 belongs to the transfer and
// ABOR, and the session is in step after it. NOOP is sent only once ABOR
// was answered: pure-ftpd reads the control connection during a transfer
// to catch ABOR, and a NOOP that came with it in one read was lost. The
// Telnet IP and Synch RFC 959 asks to send first are left out: with the
// data connection closed the server's transfer fails by itself, and then
// it reads ABOR as a command. When the exchange fails or takes longer
// than abortWait, the session is closed: a server slower than that to
// confirm costs a new login, not a wait.
func (c *ctrl) abortTransfer() {
	c.nc.SetDeadline(time.Now().Add(abortWait))
	if !c.until("ABOR", func(code int) bool { return code >= 200 && code < 300 || code >= 500 }) ||
		!c.until("NOOP", func(code int) bool { return code == codeCommandOK }) {
		c.drop()
		return
	}
	c.nc.SetDeadline(time.Time{})
	// An EPSV sent ahead was answered before NOOP was: its port is no
	// longer known, and a new one is asked for.
	c.aheadSent, c.aheadPort = false, 0
	c.release()
}

// until sends cmd and reads replies until one for which last is true,
// at most abortReplies of them; false when that reply never came, or the
// server is closing (421).
func (c *ctrl) until(cmd string, last func(code int) bool) bool {
	if c.send(cmd) != nil {
		return false
	}
	for range abortReplies {
		rp, err := c.read()
		if err != nil || rp.Code == codeServiceNotAvailable {
			return false
		}
		if last(rp.Code) {
			return true
		}
	}
	return false
}

// drop closes a session that must not be used again.
func (c *ctrl) drop() {
	c.broken = true
	c.close()
}
