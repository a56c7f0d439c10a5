#!/bin/sh
# certs.sh SERVICE [KEY_OWNER]: install the test bed's CA and server
# certificate (mode 644) and the server key (mode 600, owned by KEY_OWNER,
# default root) into /etc/testbed/tls, from the mounted certs directory
# where nginx exports them at start; fail naming SERVICE if one is missing.
set -eu
certs=/var/lib/testbed/certs
for f in ca.pem server.pem server.key; do
	if [ ! -s "$certs/$f" ]; then
		echo "$1: no $certs/$f (nginx exports it at start)" >&2
		exit 1
	fi
done
mkdir -p /etc/testbed/tls
install -m 644 "$certs/ca.pem" "$certs/server.pem" /etc/testbed/tls/
install -m 600 -o "${2:-root}" "$certs/server.key" /etc/testbed/tls/
