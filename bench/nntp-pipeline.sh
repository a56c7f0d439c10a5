#!/usr/bin/env bash
# bench/nntp-pipeline.sh — issue 26's row "1,000 articles of one group":
# `urlget mirror --max 1000` of INN's local.general, with the article
# commands pipelined (the default: up to 32 ahead on each of the mirror's 4
# connections, RFC 3977 §3.5) against the same urlget with --no-pipeline
# (each command after the reply before it: GROUP and ARTICLE, two round
# trips an article). RUNS runs of each (default 3), alternating, from an
# empty directory each time; the median wall time of each and their ratio
# (target <= 0.25). Every run's articles are checked by SHA-256 against the
# first run's.
#
#   bench/nntp-pipeline.sh                      loopback (127.0.0.1:1119)
#   WAN=40ms,20MiB/s bench/nntp-pipeline.sh     over the WAN of bench/wan.sh
#
# The 1,000 articles are posted to local.general the first time
# (nntpBenchNumbers, through BenchmarkNNTPArticles: only the missing ones).
# A post to local.general between runs shifts "the newest 1,000" and fails
# the check. Needs: the stack up (integration/stack.sh up), sha256sum.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
. bench/wan.sh
RUNS=${RUNS:-3}
N=1000

tmp=$(mktemp -d)
trap 'wan_down; rm -rf "$tmp"' EXIT
go test -tags integration -count=1 -run XXX -bench 'BenchmarkNNTPArticles/one-connection' -benchtime 1x ./integration/ >"$tmp/post" ||
	{ cat "$tmp/post" >&2; exit 1; }
bin=$tmp/urlget
go build -o "$bin" ./cmd/urlget
wan_up
src=nntp://$host:1119/local.general
echo "== urlget mirror --max $N $src, $RUNS runs each, alternating"

now() { date +%s.%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
digest() { (cd "$1" && find . -type f ! -name .urlget-mirror.lock | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16); }
declare -A wall
ref=
for i in $(seq 1 "$RUNS"); do
	for mode in pipelined no-pipeline; do
		flags=()
		[ "$mode" = no-pipeline ] && flags=(--no-pipeline)
		rm -rf "$tmp/m"
		t=$(now)
		"$bin" mirror -s --max "$N" "${flags[@]}" "$src" "$tmp/m"
		w=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
		n=$(find "$tmp/m" -type f ! -name .urlget-mirror.lock | wc -l)
		d=$(digest "$tmp/m")
		[ "$n" -eq "$N" ] || { echo "$mode run $i: $n articles, want $N" >&2; exit 1; }
		[ -z "$ref" ] && ref=$d
		[ "$d" = "$ref" ] || { echo "$mode run $i: articles differ from the first run's (SHA-256 $d, want $ref)" >&2; exit 1; }
		wall[$mode]+="$w "
	done
done
p=$(printf '%s\n' ${wall[pipelined]} | median)
s=$(printf '%s\n' ${wall[no-pipeline]} | median)
ratio=$(awk -v p="$p" -v s="$s" 'BEGIN { printf "%.3f", p / s }')
printf '%-12s %-28s %s\n' client "runs (s)" "median (s)"
printf '%-12s %-28s %s\n' pipelined "${wall[pipelined]}" "$p"
printf '%-12s %-28s %s\n' no-pipeline "${wall[no-pipeline]}" "$s"
echo "== pipelined / no-pipeline: $ratio (target <= 0.25); every run's $N articles SHA-256 $ref"
