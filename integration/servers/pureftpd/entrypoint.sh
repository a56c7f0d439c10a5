#!/bin/sh
# pure-ftpd logs only to syslog (the -d flag adds every command), so a busybox
# syslogd writes /var/log/testbed/pure-ftpd.log; transfers also go to xferlog.
set -eu
/usr/local/lib/testbed/logdir.sh xferlog
/usr/local/lib/testbed/syslogd.sh pure-ftpd.log
# Explicit FTPS (AUTH TLS) is offered but optional (-Y 1), with a fresh
# self-signed certificate for 127.0.0.1; its certificate is published in the
# log directory (ftps-cert.pem) for the ftp tests to verify it with.
/usr/local/lib/testbed/selfsigned.sh /etc/ssl/private/pure-ftpd.pem /var/log/testbed/ftps-cert.pem
exec pure-ftpd -S 127.0.0.1,2123 -p 30200:30399 -P 127.0.0.1 -l unix -i -H -d -Y 1 \
	-g /run/pure-ftpd.pid -O clf:/var/log/testbed/xferlog -C 100 -c 100
