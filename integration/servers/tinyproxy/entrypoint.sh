#!/bin/sh
# tinyproxy on 127.0.0.1:3128 in the foreground (-d); tinyproxy must not be
# PID 1 (compose sets init: true). It opens its log only after dropping to
# user tinyproxy, so that user must own the (world-readable) log file.
set -eu
/usr/local/lib/testbed/logdir.sh tinyproxy.log
chown tinyproxy:tinyproxy /var/log/testbed/tinyproxy.log
# The pid file is written as root, before the switch to user tinyproxy.
mkdir -p /run/tinyproxy
exec tinyproxy -d -c /etc/tinyproxy/testbed.conf
