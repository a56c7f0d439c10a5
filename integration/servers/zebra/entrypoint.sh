#!/bin/sh
# Zebra on 127.0.0.1:2101 (Z39.50's port 210 is privileged; the test bed
# binds unprivileged ports only). At each start the register is made
# afresh from the mounted catalogue, one database a file: books.mrc into
# "books", journals.mrc into "journals" (integration/cmd/mkmarc writes
# them, testbed.ZebraRecord says what they hold). zebrasrv then runs in
# the foreground, logging each request to zebrasrv.log and every APDU
# (-a) to apdu.log, where the tests can read them.
set -eu
/usr/local/lib/testbed/logdir.sh zebrasrv.log apdu.log zebraidx.log
rm -rf /var/lib/zebra-testbed
mkdir -p /var/lib/zebra-testbed/register /var/lib/zebra-testbed/lock /var/lib/zebra-testbed/tmp
cd /etc/zebra-testbed
zebraidx -c zebra.cfg -l /var/log/testbed/zebraidx.log init
for f in /srv/zebra/*.mrc; do
	[ -e "$f" ] || { echo "entrypoint: no catalogue in /srv/zebra (stack.sh up runs mkmarc)" >&2; exit 1; }
	zebraidx -c zebra.cfg -l /var/log/testbed/zebraidx.log -d "$(basename "$f" .mrc)" update "$f"
done
# "-a -": the APDUs on stderr, into one file (a named file gets a suffix
# of each process's id: one file a connection, as zebrasrv forks one).
exec zebrasrv -c zebra.cfg -l /var/log/testbed/zebrasrv.log -a - tcp:127.0.0.1:2101 2>>/var/log/testbed/apdu.log
