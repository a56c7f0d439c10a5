#!/bin/sh
# Export the test CA and server certificate to the mounted host directory
# (integration/.run/certs), then run nginx in the foreground. The server key
# goes too, root's and mode 600, for the gophers service's stunnel to serve
# the same certificate (the CA's key never leaves the image).
set -eu
/usr/local/lib/testbed/logdir.sh access.log error.log
if [ -d /var/lib/testbed/certs ]; then
	cp /etc/testbed/tls/ca.pem /etc/testbed/tls/server.pem /var/lib/testbed/certs/
	chmod 644 /var/lib/testbed/certs/ca.pem /var/lib/testbed/certs/server.pem
	install -m 600 /etc/testbed/tls/server.key /var/lib/testbed/certs/server.key
fi
exec nginx -g 'daemon off;' -e /var/log/testbed/error.log -c /etc/nginx/testbed.conf
