# bench/wan.sh — sourced by the bench scripts, to run them "as over the
# internet". With WAN set, for example
#
#	WAN=40ms,20MiB/s bench/http.sh
#	WAN='40ms±6ms,20MiB/s' bench/ftp.sh      (also 40ms+-6ms)
#
# wan_up [HOST:PORT...] puts the test bed's nginx (8080), gophernicus
# (7070), INN (1119), waisd (2210) and vsftpd (2121 and its passive ports
# 30000–30099), and the bench's own servers named, behind toxiproxy proxies
# on 127.0.0.2, each on the port of its server (integration/cmd/wan,
# package integration/wan), and sets $host to 127.0.0.2: a script builds
# its URLs on $host and the same ports, for urlget and the peers alike.
# Without WAN, $host is 127.0.0.1 and nothing is proxied.
#
# The spec: a round trip RTT (each direction delays every chunk by RTT/2),
# an optional jitter ±J (each direction RTT/2 ± J/2, uniform, in order),
# and each connection's bandwidth in each direction (B, KB, MB of 1000;
# KiB, MiB, GiB of 1024 a second); RTT and J whole even milliseconds.
# Opening a connection costs a round trip before its first bytes, as over
# a real link, when the stack's toxiproxyd has the handshake toxic
# (WAN_HANDSHAKE=yes; integration/stack.sh up builds it); an older one
# accepts on loopback at once, and a new connection costs a round trip
# less.
# FTP peers: urlget and curl use EPSV; lftp's PASV gets vsftpd's 127.0.0.1
# and lftp corrects it to the control connection's host (the scripts also
# set ftp:ignore-pasv-address); wget's FTP connects to PASV's 127.0.0.1
# and so bypasses the WAN on its data connections — do not time it there.
#
# One WAN per address at a time (wan_up replaces what is on it): to run
# two benches at once, give the second WAN_ADDR=127.0.0.5 (any 127.x
# address the test bed's servers do not bind; TestWAN takes .3 and .4).
#
# wan_down deletes the proxies: call it from the script's EXIT trap.
host=127.0.0.1
wan_bin=
wan_up() {
	[ -n "${WAN:-}" ] || return 0
	wan_bin=$(mktemp)
	go build -o "$wan_bin" ./integration/cmd/wan
	local vars
	vars=$("$wan_bin" -host "${WAN_ADDR:-127.0.0.2}" up "$WAN" "$@")
	eval "$vars"
	host=$WAN_HOST
	echo "== over a WAN: $WAN_SPEC (round trip, per-connection bandwidth; handshake imitated: $WAN_HANDSHAKE), through toxiproxy on $WAN_HOST"
}
wan_down() {
	[ -n "$wan_bin" ] || return 0
	"$wan_bin" -host "${WAN_ADDR:-127.0.0.2}" down 2>/dev/null || true
	rm -f "$wan_bin"
	wan_bin=
}
