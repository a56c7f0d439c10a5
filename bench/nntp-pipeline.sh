#!/usr/bin/env bash
# bench/nntp-pipeline.sh — issue 26's row "1,000 articles of one group":
# `urlget mirror --max 1000` of INN's local.general, with the article
# commands pipelined (the default: up to 64 ahead on each of the mirror's 4
# connections, RFC 3977 §3.5) against the same urlget with --no-pipeline
# (each command after the reply before it: GROUP and ARTICLE, two round
# trips an article). RUNS runs of each (default 3), alternating, from an
# empty directory each time; the median wall time of each and their ratio
# (target <= 0.25). Every run's articles are checked by SHA-256 against the
# first run's. Then the same for one command of the 1,000 articles'
# news:<message-id> URLs (-i: one ARTICLE, one round trip, an article
# without pipelining), its output checked likewise.
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
CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
wan_up
src=nntp://$host:1119/local.general
echo "== urlget mirror --max $N $src, $RUNS runs each, alternating"

. bench/lib.sh
# flags MODE: urlget's flags for pipelined or no-pipeline.
flags() { [ "$1" = no-pipeline ] && echo --no-pipeline || true; }

# compare LABEL RUN: RUNS runs of `RUN pipelined` and `RUN no-pipeline`,
# alternating; RUN prints the SHA-256 of what it fetched, which must be the
# first run's every time. Prints the runs, the medians and their ratio.
compare() {
	local label=$1 run=$2 i mode t d w ref=
	local -A wall=()
	for i in $(seq 1 "$RUNS"); do
		for mode in pipelined no-pipeline; do
			t=$(now)
			d=$("$run" "$mode")
			w=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
			[ -z "$ref" ] && ref=$d
			[ "$d" = "$ref" ] || { echo "$label, $mode run $i: fetched other bytes than the first run (SHA-256 $d, want $ref)" >&2; exit 1; }
			wall[$mode]+="$w "
		done
	done
	local p s
	p=$(printf '%s\n' ${wall[pipelined]} | median)
	s=$(printf '%s\n' ${wall[no-pipeline]} | median)
	printf '%-12s %-28s %s\n' client "runs (s)" "median (s)" pipelined "${wall[pipelined]}" "$p" no-pipeline "${wall[no-pipeline]}" "$s"
	echo "== $label, pipelined / no-pipeline: $(awk -v p="$p" -v s="$s" 'BEGIN { printf "%.3f", p / s }') (target <= 0.25); SHA-256 $ref"
}

# run_mirror MODE mirrors the group into an empty directory.
run_mirror() {
	rm -rf "$tmp/m"
	"$bin" mirror -s --max "$N" $(flags "$1") "$src" "$tmp/m"
	local n
	n=$(find "$tmp/m" -type f ! -name .urlget-mirror.lock | wc -l)
	[ "$n" -eq "$N" ] || { echo "$1: $n articles, want $N" >&2; exit 1; }
	(cd "$tmp/m" && find . -type f ! -name .urlget-mirror.lock | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
}

# run_urls MODE fetches the articles' news:<message-id> URLs in one command.
run_urls() {
	"$bin" -s --nntp-server "$host:1119" $(flags "$1") -i "$tmp/urls" | sha256sum | cut -c1-16
}

echo "== urlget mirror --max $N $src, $RUNS runs each, alternating"
compare mirror run_mirror

# The mirror's articles as news:<message-id> URLs, in number order.
"$bin" -s --nntp-server "$host:1119" --max "$N" --json news:local.general |
	python3 -c '
import json, sys
for x in json.load(sys.stdin)["entries"]:
    print("news:" + x["extra"]["message_id"])' >"$tmp/urls"
echo "== urlget --nntp-server $host:1119 -i URLS ($(wc -l <"$tmp/urls") news:<message-id> URLs), $RUNS runs each, alternating"
compare URLs run_urls
