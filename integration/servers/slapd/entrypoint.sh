#!/bin/sh
# slapd (OpenLDAP, Debian) on 127.0.0.1:3389 (ldap, StartTLS) and 3636
# (ldaps), with the test bed's server certificate, signed by the CA the
# tests trust: nginx exports both, with the server key, into the mounted
# certs directory, which compose has this service wait for. The directory
# is loaded afresh at each start (fixture.sh, slapadd), then slapd runs in
# the foreground, logging each operation (stats) to slapd.log.
set -eu
/usr/local/lib/testbed/logdir.sh slapd.log
/usr/local/lib/testbed/certs.sh slapd openldap
rm -rf /var/lib/ldap-testbed
install -d -o openldap -g openldap /var/lib/ldap-testbed /run/slapd
/usr/local/lib/testbed/fixture.sh > /var/lib/testbed-fixture.ldif
slapadd -q -f /etc/ldap/testbed.conf -l /var/lib/testbed-fixture.ldif
chown -R openldap:openldap /var/lib/ldap-testbed
exec slapd -f /etc/ldap/testbed.conf -h "ldap://127.0.0.1:3389/ ldaps://127.0.0.1:3636/" \
	-u openldap -g openldap -d stats >>/var/log/testbed/slapd.log 2>&1
