#!/bin/sh
set -eu
/usr/local/lib/testbed/logdir.sh commands.log xferlog proftpd.log
mkdir -p /run/proftpd
exec proftpd -n -c /etc/proftpd/testbed.conf
