package schemes

import "slices"

// The port facts. Each scheme declares its default port and the further
// restricted ports its protocol owns (Name.Port, Name.OwnPorts); nothing
// outside its package lists them again. Its parser gives every URL its
// default port (PortOf, URL.DefaultPort), so that EffectivePort and the
// canonical form need no table, and the Registry answers the dialer's
// port policy (transport.Ports) from the declarations it was built with.

// PortOf returns the declared default port of scheme among names, 0 if
// scheme is not one of them or names no host: a scheme package's parser
// sets URL.DefaultPort with it, from the same Names its Declaration
// returns.
func PortOf(names []Name, scheme string) int {
	if i := slices.IndexFunc(names, func(n Name) bool { return n.Name == scheme }); i >= 0 {
		return names[i].Port
	}
	return 0
}

// DefaultPort returns the declared default port of scheme, 0 if it has
// none or r has no declaration of it (Register alone declares nothing).
func (r *Registry) DefaultPort(scheme string) int { return r.names[scheme].Port }

// OwnsPort reports whether port belongs to scheme's protocol as its
// declaration says: its default port, or one of its OwnPorts (ftp's data
// port 20, mailto's SMTP submission ports). The dialer lets a scheme use
// a restricted port it owns.
func (r *Registry) OwnsPort(scheme string, port int) bool {
	n, ok := r.names[scheme]
	return ok && port != 0 && (port == n.Port || slices.Contains(n.OwnPorts, port))
}
