#!/bin/sh
# pure-ftpd logs only to syslog (the -d flag adds every command), so a busybox
# syslogd writes /var/log/testbed/pure-ftpd.log; transfers also go to xferlog.
set -eu
/usr/local/lib/testbed/logdir.sh xferlog
/usr/local/lib/testbed/syslogd.sh pure-ftpd.log
exec pure-ftpd -S 127.0.0.1,2123 -p 30200:30399 -P 127.0.0.1 -l unix -i -H -d \
	-g /run/pure-ftpd.pid -O clf:/var/log/testbed/xferlog -C 100 -c 100
