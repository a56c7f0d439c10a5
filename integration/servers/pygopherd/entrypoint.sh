#!/bin/bash
# pygopherd (Gopher+) on 127.0.0.1:7071. Its root /srv/pygopherd holds the
# Gopher+ items of the image (about.txt, form.txt, multi.txt with their
# attribute files) plus docs/ and binaries/ copied from the fixture tree.
set -eu
/usr/local/lib/testbed/logdir.sh pygopherd.log
for f in lf.txt crlf.txt mixed.txt dotlines.txt utf8.txt; do
	cp /srv/fixtures/text/$f /srv/pygopherd/docs/$f
done
cp /srv/fixtures/bin/small.bin /srv/pygopherd/binaries/small.bin
chmod -R a+rX /srv/pygopherd
# The whole fixture tree, for the conformance suite (after the chmod: it is read-only): /fixtures/<path>.
ln -sfn /srv/fixtures /srv/pygopherd/fixtures
rm -f /run/pygopherd.pid
# logmethod = file writes to stdout: keep it in the log file and docker logs.
exec /usr/bin/python3 /usr/sbin/pygopherd /etc/pygopherd/testbed.conf > >(exec tee -a /var/log/testbed/pygopherd.log) 2>&1
