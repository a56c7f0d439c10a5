#!/usr/bin/env bash
# bench/nntp.sh — 1,000 articles fetched by number from INN in the test bed
# (127.0.0.1:1119), as nntp://host/group/n URLs:
#   1. the Go benchmark BenchmarkNNTPArticles (integration/nntp_bench_test.go):
#      one reused connection vs a new connection per article, each article
#      once (-benchtime 1000x); it posts the 1,000 articles to local.general
#      the first time (bounded: only the missing ones) and reports time,
#      commands and connections per article;
#   2. the command line: all 1,000 URLs (news:<message-id>) in one urlget
#      process (connections reused, article commands pipelined), the same
#      with --no-pipeline, and one process per article for the first N1
#      (default 100).
# bench/nntp-pipeline.sh times pipelining over a WAN (issue 26).
# Needs: the stack up (integration/stack.sh up).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
N1=${N1:-100}

echo "== go test -bench BenchmarkNNTPArticles -benchtime 1000x"
go test -tags integration -count=1 -run XXX -bench BenchmarkNNTPArticles -benchtime 1000x ./integration/ |
	grep -E '^(Benchmark|ok|FAIL)'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/urlget
CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
server=127.0.0.1:1119
# The benchmark articles: the newest 1,000 with the benchmark subject.
"$bin" -s --nntp-server "$server" --max 100000 --json news:local.general |
	python3 -c '
import json, sys
e = [x for x in json.load(sys.stdin)["entries"] if "urlget bench article" in x.get("title", "")]
for x in e[-1000:]:
    print("news:" + x["extra"]["message_id"])' >"$tmp/urls"
n=$(wc -l <"$tmp/urls")
[ "$n" -ge 1000 ] || { echo "only $n benchmark articles (run step 1 first)" >&2; exit 1; }

now() { date +%s.%N; }
t=$(now)
"$bin" -s --nntp-server "$server" -i "$tmp/urls" >"$tmp/all"
t1=$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')
echo "== one process, $n URLs: ${t1}s ($(awk -v t="$t1" -v n="$n" 'BEGIN { printf "%.3f", t * 1000 / n }') ms/article), $(wc -c <"$tmp/all") bytes"
t=$(now)
"$bin" -s --nntp-server "$server" --no-pipeline -i "$tmp/urls" >"$tmp/seq"
t1=$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')
cmp -s "$tmp/all" "$tmp/seq" || { echo "--no-pipeline fetched other bytes" >&2; exit 1; }
echo "== one process, $n URLs, --no-pipeline: ${t1}s ($(awk -v t="$t1" -v n="$n" 'BEGIN { printf "%.3f", t * 1000 / n }') ms/article), the same bytes"
t=$(now)
head -n "$N1" "$tmp/urls" | while read -r u; do "$bin" -s --nntp-server "$server" "$u" >/dev/null; done
t2=$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')
echo "== one process per article, $N1 URLs: ${t2}s ($(awk -v t="$t2" -v n="$N1" 'BEGIN { printf "%.3f", t * 1000 / n }') ms/article)"
