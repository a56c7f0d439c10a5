#!/bin/sh
set -eu
/usr/local/lib/testbed/logdir.sh xinetd.log
exec xinetd -dontfork -stayalive -f /etc/xinetd.testbed.conf
