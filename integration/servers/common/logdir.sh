#!/bin/sh
# logdir.sh FILE... : make /var/log/testbed (a host directory mounted by
# docker-compose.yml) and the given log files exist and be world-readable, so
# tests on the host can read them whoever runs them.
set -eu
mkdir -p /var/log/testbed
chmod 755 /var/log/testbed
for f in "$@"; do
	touch "/var/log/testbed/$f"
	chmod 644 "/var/log/testbed/$f"
done
