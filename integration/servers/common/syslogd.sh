#!/bin/sh
# syslogd.sh FILE : start busybox syslogd in the background, logging every
# message to /var/log/testbed/FILE, and wait until /dev/log exists.
set -eu
/usr/local/lib/testbed/logdir.sh "$1"
rm -f /dev/log
busybox syslogd -n -O "/var/log/testbed/$1" &
i=0
while [ ! -S /dev/log ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -S /dev/log ] || { echo "syslogd did not start" >&2; exit 1; }
