#!/bin/sh
# efingerd under xinetd on 127.0.0.1:7979 (inetd-style, as Debian runs it).
set -eu
/usr/local/lib/testbed/logdir.sh xinetd.log queries.log
chmod 666 /var/log/testbed/queries.log
exec xinetd -dontfork -stayalive -f /etc/xinetd.testbed.conf
