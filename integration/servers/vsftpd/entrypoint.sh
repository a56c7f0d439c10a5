#!/bin/sh
set -eu
/usr/local/lib/testbed/logdir.sh vsftpd.log
# vsftpd must not be PID 1 (compose sets init: true) nor log to stdout.
exec vsftpd /etc/vsftpd/testbed.conf
