#!/usr/bin/env bash
# bench/shard.sh — one mirror split across processes (issue 36): `urlget
# mirror` of one FTP tree by 1 (unsplit), 2 and 4 shards (`--shard I/N`),
# the shards of a row run at once into one directory, each with its own
# -P P connections, as N machines of a scheduler would. The tree is
# bench/mirror.sh's: 2,000 files of 1–8 KiB in 20 directories and four of
# 16 MiB (76 MiB), served by the test bed's vsftpd from the fixtures'
# scratch directory. REPS rounds, the rows alternating in each; medians.
# Per row: the wall time of the slowest shard (the mirror is done when
# its last shard is), the bytes the shards fetched (their --json
# summaries, added), the files vsftpd sent (its log's downloads: each
# file once whatever N) and the FTP commands it received (every shard
# lists every directory: the listings grow with N, the transfers do not).
# Every row's first round is checked: the tree against the source, by
# SHA-256 of every file.
#
# WAN=40ms,20MiB/s (see bench/wan.sh) puts vsftpd behind toxiproxy on
# WAN_ADDR (default 127.0.0.2): 40 ms a round trip and 20 MiB/s a
# connection, where more connections pay; on loopback the server and two
# cores set the pace, and the figures are for information.
# Environment: REPS (default 3), P (connections of each shard, default
# 4), SHARDS (default "1 2 4"), BIN (a urlget binary to measure instead of
# one built from this tree), BENCH_DIR (where the copies go; default the
# repository's bench/).
# Needs: the stack up (integration/stack.sh up), python3, sha256sum.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
REPS=${REPS:-3}
P=${P:-4}
SHARDS=${SHARDS:-1 2 4}
trap 'echo "bench/shard.sh: line $LINENO: a command failed" >&2' ERR
. bench/lib.sh
need python3:python3
log=integration/.run/logs/vsftpd/vsftpd.log
[ -f "$log" ] || { echo "no vsftpd log: is the stack up (integration/stack.sh up)?" >&2; exit 1; }

src=integration/.run/fixtures/scratch/bench-shard
work=$(mktemp -d)
out=$(mktemp -d "${BENCH_DIR:-$root/bench}/.shard.XXXXXX")
. bench/wan.sh
trap 'wan_down; rm -rf "$work" "$out" "$src"' EXIT
bin=${BIN:-$work/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget

mirror_tree "$src"
wan_up
url="ftp://$host:2121/scratch/bench-shard/"

# check DIR: the tree under DIR (locks left out) must be the source's.
check() {
	local got
	got=$(cd "$1" && find . -type f ! -name '.urlget-mirror.lock*' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "$2: the mirrored tree differs from the source" >&2; exit 1; }
}

# shards N DEST: the N shards at once into DEST (N=1: one unsplit run);
# prints the seconds the last took and the bytes their summaries count.
shards() {
	local n=$1 dest=$2 i t pids=()
	t=$(now)
	for ((i = 0; i < n; i++)); do
		local shard=()
		[ "$n" = 1 ] || shard=(--shard "$i/$n")
		"$bin" mirror -s --json -P "$P" "${shard[@]}" "$url" "$dest" >"$work/json.$i" 2>"$work/err.$i" &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || { echo "shard $i/$n failed: $(tail -3 "$work/err.$i")" >&2; exit 1; }
	done
	local secs
	secs=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
	echo "$secs $(cat "$work"/json.* | python3 -c '
import json, sys
print(sum(e.get("bytes", 0) for e in map(json.loads, sys.stdin) if e["event"] == "summary"))')"
	rm -f "$work"/json.* "$work"/err.*
}

# sent OFFSET: "FILES COMMANDS": the downloads and the FTP commands in
# vsftpd's log past OFFSET, once the log has settled (vsftpd writes a
# download's line as its data connection closes).
sent() {
	local a b=-1
	while a=$(stat -c %s "$log") && [ "$a" != "$b" ]; do
		b=$a
		sleep 0.5
	done
	tail -c +"$(($1 + 1))" "$log" | awk '/OK DOWNLOAD:/ { f++ } /FTP command:/ { c++ } END { print f + 0, c + 0 }'
}

echo "tree: $files files ($(du -sh "$src" | cut -f1)), -P $P a shard, $REPS rounds"
declare -A runs got cnt
for r in $(seq "$REPS"); do
	for n in $SHARDS; do
		dest=$out/$n-$r
		sync
		off=$(stat -c %s "$log")
		read -r secs b < <(shards "$n" "$dest")
		runs[$n]+="$secs "
		if [ "$r" = 1 ]; then
			check "$dest" "$n shards"
			[ "$b" = "$bytes" ] || { echo "$n shards fetched $b bytes, the tree has $bytes" >&2; exit 1; }
			got[$n]=$b
			cnt[$n]=$(sent "$off")
		fi
	done
done
where=loopback
[ -z "${WAN:-}" ] || where="WAN $WAN_SPEC"
echo "== $files files, $bytes bytes, from vsftpd, $where"
echo "| shards (processes at once) | connections | runs (s) | median (s) | × 1 shard | bytes fetched | files sent | FTP commands |"
echo "|---|---|---|---|---|---|---|---|"
base=
for n in $SHARDS; do
	m=$(printf '%s\n' ${runs[$n]} | median)
	[ -n "$base" ] || base=$m
	read -r f c <<<"${cnt[$n]}"
	awk -v n="$n" -v p="$P" -v r="${runs[$n]% }" -v m="$m" -v b="$base" -v g="${got[$n]}" -v f="$f" -v c="$c" \
		'BEGIN { printf "| %d | %d | %s | %s | %.2f | %d | %d | %d |\n", n, n * p, r, m, m / b, g, f, c }'
done
