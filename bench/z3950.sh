#!/usr/bin/env bash
# bench/z3950.sh — 1,000 records from yaz-ztest in the test bed
# (127.0.0.1:2100) in one run: urlget lists the search "1000" (yaz-ztest
# finds that many) with --max 1000, which presents the records 100 at a
# time (USMARC); yaz-client does "find 1000" and "show" of the same ten
# batches of 100. Each is run RUNS times (default 11); the medians and
# their ratio are printed (the target is urlget ≤ 1.0 × yaz-client). The
# record counts of both are checked first.
# Needs: the stack up (integration/stack.sh up) and yaz-client (Debian
# yaz; installed if missing).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
. bench/lib.sh
need yaz:yaz-client
RUNS=${RUNS:-11}
server=127.0.0.1:2100

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/urlget
CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
url="z39.50s://$server/Default?1000"
{
	echo "open tcp:$server"
	echo "find 1000"
	for i in $(seq 0 9); do echo "show $((i * 100 + 1))+100"; done
	echo quit
} >"$tmp/yaz-commands"

n=$("$bin" -s --max 1000 "$url" | wc -l)
m=$(yaz-client -f "$tmp/yaz-commands" </dev/null | awk '/^Records: / { n += $2 } END { print n + 0 }')
[ "$n" -eq 1000 ] && [ "$m" -eq 1000 ] || { echo "records: urlget $n, yaz-client $m; want 1000 each" >&2; exit 1; }
echo "== 1000 records each: urlget listed $n, yaz-client presented $m"

for r in $(seq "$RUNS"); do
	t=$(now)
	"$bin" -s --max 1000 "$url" >/dev/null
	awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }' >>"$tmp/urlget.times"
	t=$(now)
	yaz-client -f "$tmp/yaz-commands" </dev/null >/dev/null
	awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }' >>"$tmp/yaz.times"
done
u=$(median <"$tmp/urlget.times")
y=$(median <"$tmp/yaz.times")
echo "== median of $RUNS runs: urlget ${u}s, yaz-client ${y}s, ratio $(awk -v u="$u" -v y="$y" 'BEGIN { printf "%.2f", u / y }') ×"
