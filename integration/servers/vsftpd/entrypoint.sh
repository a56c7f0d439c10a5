#!/bin/sh
# entrypoint.sh [CONF]: run vsftpd with /etc/vsftpd/CONF (default
# testbed.conf). For ftps.conf (implicit FTPS) it first makes a fresh
# self-signed certificate for 127.0.0.1 and publishes it in the log
# directory (ftps-cert.pem) for the tests to verify the server with.
set -eu
conf=${1:-testbed.conf}
/usr/local/lib/testbed/logdir.sh vsftpd.log
if [ "$conf" = ftps.conf ]; then
	/usr/local/lib/testbed/selfsigned.sh /etc/ssl/private/vsftpd.pem /var/log/testbed/ftps-cert.pem
fi
# vsftpd must not be PID 1 (compose sets init: true) nor log to stdout.
exec vsftpd "/etc/vsftpd/$conf"
