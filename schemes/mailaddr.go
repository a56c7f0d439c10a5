package schemes

import (
	"os"
	"os/user"
	"sync"
)

// DefaultMailAddress is the user's mail address where a scheme needs one
// and none was configured: the anonymous FTP password (RFC 1738 §3.2.1
// suggests it), a mail's sender. It is $URLGET_EMAIL, else $EMAIL (read
// with getenv; nil means os.Getenv), else user@host from the login name
// and the host name.
func DefaultMailAddress(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, v := range []string{"URLGET_EMAIL", "EMAIL"} {
		if s := getenv(v); s != "" {
			return s
		}
	}
	return localAddress()
}

// localAddress is user@host, worked out once: it costs a look-up of the
// user and a uname(2), and a mirror asks for it at every login.
var localAddress = sync.OnceValue(func() string {
	name := "urlget"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return name + "@" + host
})
