#!/bin/sh
# Adapt Debian's /etc/pygopherd/pygopherd.conf into /etc/pygopherd/testbed.conf.
set -eu
id gopher >/dev/null 2>&1 || useradd --system --user-group --home-dir /srv/pygopherd --shell /usr/sbin/nologin gopher
c=/etc/pygopherd/testbed.conf
cp /etc/pygopherd/pygopherd.conf "$c"
set_key() { # set_key KEY VALUE: replace the first "KEY = ..." line (maybe commented out)
	grep -q "^#* *$1 = " "$c" || { echo "configure-pygopherd: no key $1" >&2; exit 1; }
	sed -i "0,/^#* *$1 = .*/s||$1 = $2|" "$c"
}
set_key port 7071
set_key interface 127.0.0.1
set_key servername 127.0.0.1
set_key usechroot no
set_key setuid gopher
set_key setgid gopher
set_key root /srv/pygopherd
set_key logmethod file
set_key pidfile /run/pygopherd.pid
set_key detach no
set_key admin 'urlget test admin <root@127.0.0.1>'
# Upstream misspells .keywords as .keyboards; also hide our .views files.
sed -i 's/^ignorepatt = \(.*\)$/ignorepatt = \1|\\.keywords$|\\.views$/' "$c"
# Serve the fixture tree's bin/ (under /fixtures): drop /bin$ from the hidden names.
sed -i 's#^\(ignorepatt = .*\)|/bin\$|#\1|#' "$c"
! grep -q '^ignorepatt = .*|/bin\$' "$c"
# <file>.views supplies a +VIEWS block listing several views.
sed -i "s/^eaexts = {'.abstract' : 'ABSTRACT',/eaexts = {'.abstract' : 'ABSTRACT', '.views' : 'VIEWS',/" "$c"
grep -q "'.views' : 'VIEWS'" "$c"
for k in port interface servername usechroot setuid setgid root logmethod pidfile detach admin ignorepatt eaexts; do
	grep "^$k = " "$c"
done
