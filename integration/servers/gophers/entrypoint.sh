#!/bin/sh
# Gophernicus behind stunnel (gophers://, 127.0.0.1:7443). The certificate
# is the test bed's server certificate, signed by the CA the tests trust
# (--cacert integration/.run/certs/ca.pem): nginx makes both at image build
# and exports them, with the server key, into the mounted certs directory,
# which compose has this service wait for (depends_on nginx healthy).
set -eu
/usr/local/lib/testbed/logdir.sh stunnel.log gophernicus.log
chown _gophernicus /var/log/testbed/stunnel.log /var/log/testbed/gophernicus.log
/usr/local/lib/testbed/certs.sh gophers
# The gopher root: the image's gophermap and cgi-bin plus one symlink per
# top-level entry of the fixture tree, as the plain service's.
for f in /srv/fixtures/* /srv/fixtures/.[!.]*; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	ln -sfn "$f" "/srv/gopher/$(basename "$f")"
done
exec stunnel /etc/stunnel/testbed.conf
