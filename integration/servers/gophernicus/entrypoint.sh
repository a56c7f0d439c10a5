#!/bin/sh
# The gopher root (/srv/gopher) holds the gophermap and cgi-bin from the image
# plus one symlink per top-level entry of the fixture tree (/srv/fixtures).
set -eu
/usr/local/lib/testbed/logdir.sh xinetd.log gophernicus.log
chown _gophernicus /var/log/testbed/gophernicus.log
for f in /srv/fixtures/* /srv/fixtures/.[!.]*; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	ln -sfn "$f" "/srv/gopher/$(basename "$f")"
done
exec xinetd -dontfork -stayalive -f /etc/xinetd.testbed.conf
