#!/bin/sh
# entrypoint.sh [CONF]: run vsftpd with /etc/vsftpd/CONF (default
# testbed.conf). For ftps.conf (implicit FTPS) it first makes a fresh
# self-signed certificate for 127.0.0.1 and publishes it in the log
# directory (ftps-cert.pem) for the tests to verify the server with.
set -eu
conf=${1:-testbed.conf}
/usr/local/lib/testbed/logdir.sh vsftpd.log
if [ "$conf" = ftps.conf ]; then
	mkdir -p /etc/ssl/private
	openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 -keyout /tmp/key.pem -out /tmp/cert.pem 2>/dev/null
	cat /tmp/key.pem /tmp/cert.pem >/etc/ssl/private/vsftpd.pem
	chmod 600 /etc/ssl/private/vsftpd.pem
	cp /tmp/cert.pem /var/log/testbed/ftps-cert.pem
	chmod 644 /var/log/testbed/ftps-cert.pem
	rm -f /tmp/key.pem /tmp/cert.pem
fi
# vsftpd must not be PID 1 (compose sets init: true) nor log to stdout.
exec vsftpd "/etc/vsftpd/$conf"
