#!/bin/bash
# Run innd (as news, in the foreground), seed the test articles once, then
# mark the container healthy (/run/testbed-seeded) and wait for innd.
set -euo pipefail
/usr/local/lib/testbed/syslogd.sh news.log
chown news:news /var/log/testbed
mkdir -p /run/news && chown news:news /run/news
rm -f /run/news/innd.pid /run/testbed-seeded

runuser -u news -- /usr/lib/news/bin/innd -f &
innd=$!
trap 'kill -TERM $innd 2>/dev/null; wait $innd' TERM INT

# Wait (bounded) for the 200 greeting.
for i in $(seq 1 100); do
	if { exec 3<>/dev/tcp/127.0.0.1/1119; } 2>/dev/null; then
		read -r -t 2 line <&3 || line=
		exec 3<&- 3>&-
		case $line in 200*|201*) break ;; esac
	fi
	kill -0 $innd 2>/dev/null || { echo "innd exited" >&2; exit 1; }
	sleep 0.1
done

for art in /usr/local/lib/testbed/articles/*.art; do
	id=$(sed -n 's/^Message-ID: *//p' "$art" | head -n1)
	if runuser -u news -- /usr/lib/news/bin/grephistory "$id" >/dev/null 2>&1; then
		continue
	fi
	runuser -u news -- /usr/bin/inews -h -O -P -p 1119 < "$art"
	echo "seeded $id"
done
touch /run/testbed-seeded
wait $innd
