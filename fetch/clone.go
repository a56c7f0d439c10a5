package fetch

// Clone returns a new Client with c's settings that shares c's sessions:
// its Conns is c's (c's own pool when c has none), so idle connections
// serve both. A caller changes the clone's policy (CheckRedirect,
// MaxRedirects, Retries) without touching c, as net/http's
// Transport.Clone allows. The clone dials with c's Dialer (with c's TLS
// and port facts, the very copy c uses, so that pooled sessions match).
// Closures (Credentials, CheckRedirect, Notify) are shared, not copied.
func (c *Client) Clone() *Client {
	// Field by field: a Client holds its pool by value, which must not be
	// copied (TestCloneCopiesEverySetting fails when a field is added
	// here without being copied).
	c.dialer() // the copy that carries TLS and ports is made now, for both to share
	n := &Client{
		Registry:             c.Registry,
		Dialer:               c.Dialer,
		Conns:                c.conns(),
		MaxIdleConnsPerHost:  c.MaxIdleConnsPerHost,
		Trace:                c.Trace,
		TLS:                  c.TLS,
		Credentials:          c.Credentials,
		LocationTrusted:      c.LocationTrusted,
		Netrc:                c.Netrc,
		RequireTLS:           c.RequireTLS,
		Prompt:               c.Prompt,
		NoAmbientCredentials: c.NoAmbientCredentials,
		Protocols:            c.Protocols,
		RedirectProtocols:    c.RedirectProtocols,
		CheckRedirect:        c.CheckRedirect,
		MaxRedirects:         c.MaxRedirects,
		Retries:              c.Retries,
		RetryDelay:           c.RetryDelay,
		MaxTime:              c.MaxTime,
		RetryMaxTime:         c.RetryMaxTime,
		SettingName:          c.SettingName,
		Notify:               c.Notify,
		LimitRate:            c.LimitRate,
		MaxFileSize:          c.MaxFileSize,
	}
	c.dialers.share(&n.dialers)
	return n
}
