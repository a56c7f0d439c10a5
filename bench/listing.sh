#!/usr/bin/env bash
# bench/listing.sh — the memory a mirror's walk takes over a hostile FTP
# listing of N files (default 2,000,000), in one run:
#   urlget (this tree, --max-entries -1: the whole listing is walked),
#   base  (an older urlget: BASE, or built from BASE_REV, by default the
#          commit before issue 21 bounded the mirror's memory),
#   lftp  (mirror --dry-run),
# each a dry run (nothing fetched) of ftp://127.0.0.1:PORT/ served by
# integration/hostile's ftp-wide fake, which generates the listing as it
# sends it. Peak RSS from /usr/bin/time -v, wall time; REPS rounds, clients
# alternating; medians and the ratios urlget/base and urlget/lftp. A run
# still going after LIMIT seconds is killed there and its figures marked
# "(killed)": its peak is then a lower bound. Target: urlget <= 256 MiB.
# Then a real tree: file: mirrors (real runs) of 10,000 and of 100,000
# files of 1 KiB in directories of 100, written under TREE_DIR (default
# /dev/shm), by urlget and base: peak RSS of each, and the ratio
# 100,000/10,000 (flat: near 1).
# Then a listing alone (section 3): `urlget ls` of 1,000 and of 1,000,000
# (M) entries from the same fake, streamed to /dev/null, beside curl (the
# listing's bytes, for reference): peak RSS and wall time, every entry
# counted once; flat memory is a peak at 1,000,000 entries within a few
# MiB of the peak at 1,000 (issue 26).
# Environment: N, M, REPS (default 3), LIMIT (default 120), BIN (a urlget to
# measure instead of one built here), BASE, BASE_REV, TREE_DIR, ONLY (the
# sections, "1 2 3" by default).
# Needs: go, /usr/bin/time, lftp (apt-get install lftp); not the stack.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
N=${N:-2000000}
REPS=${REPS:-3}
LIMIT=${LIMIT:-120}
BASE_REV=${BASE_REV:-067602c}
M=${M:-1000000}
ONLY=${ONLY:-1 2 3}
section() { [[ " $ONLY " == *" $1 "* ]]; }
trap 'echo "bench/listing.sh: line $LINENO: a command failed" >&2' ERR
for t in go lftp /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "$t not installed" >&2; exit 1; }
done

work=$(mktemp -d)
mkdir "$work/res"
trees=$(mktemp -d "${TREE_DIR:-/dev/shm}/urlget-bench-trees.XXXXXX")
srv_pid=
cleanup() {
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
	rm -rf "$work" "$trees"
}
trap cleanup EXIT

bin=${BIN:-$work/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
base=${BASE:-}
if [ -z "$base" ]; then
	mkdir "$work/base-src"
	git archive "$BASE_REV" | tar -x -C "$work/base-src"
	(cd "$work/base-src" && CGO_ENABLED=0 go build -o "$work/base" ./cmd/urlget)
	base=$work/base
fi
go build -o "$work/hostileserve" ./integration/hostile/cmd/hostileserve

# measure NAME CMD… appends "rss_kib seconds killed" to $work/res/NAME. The
# command runs under /usr/bin/time, which reports its peak even when it is
# killed at LIMIT (killing time itself would lose it).
measure() {
	local name=$1 out=$work/time.out rc=0 killed=no
	shift
	/usr/bin/time -v -o "$out" "$@" >/dev/null 2>"$work/stderr" &
	local tpid=$! child= t0=$SECONDS
	while kill -0 "$tpid" 2>/dev/null; do
		[ -n "$child" ] || child=$(pgrep -P "$tpid" || true)
		if [ $((SECONDS - t0)) -ge "$LIMIT" ] && [ -n "$child" ]; then
			kill -KILL "$child" 2>/dev/null || true
			killed=yes
			break
		fi
		sleep 0.2
	done
	wait "$tpid" || rc=$?
	local rss secs
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out")
	secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	echo "$rss $secs $killed" >>"$work/res/$name"
	printf '   %-12s exit %3d  peak RSS %6d MiB  %6.1f s%s\n' "$name" "$rc" $((rss / 1024)) "$secs" \
		"$([ $killed = yes ] && echo ' (killed)')"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# med NAME FIELD: the median of a column of $work/res/NAME.
med() { awk -v f="$2" '{print $f}' "$work/res/$1" | median; }

if section 1; then
"$work/hostileserve" ftp-wide "$N" >"$work/port" &
srv_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
url=ftp://127.0.0.1:$port/
echo "== a listing of $N files from hostileserve on 127.0.0.1:$port; $REPS rounds; killed after ${LIMIT}s"


for r in $(seq "$REPS"); do
	echo "== round $r"
	measure urlget "$bin" mirror --dry-run -s --max-entries -1 --allow-port "$port" "$url" "$work/dst-urlget"
	measure base "$base" mirror --dry-run -s --allow-port "$port" "$url" "$work/dst-base"
	measure lftp lftp -c "set net:max-retries 1; set cmd:fail-exit yes; open $url; mirror --dry-run . $work/dst-lftp"
done
kill "$srv_pid"
srv_pid=
echo "== medians of $REPS rounds (peak RSS MiB, seconds)"
for name in urlget base lftp; do
	killed=$(grep -c ' yes$' "$work/res/$name" || true)
	printf '   %-7s %6d MiB  %6.1f s%s\n' "$name" $(($(med "$name" 1 | cut -d. -f1) / 1024)) "$(med "$name" 2)" \
		"$([ "$killed" -gt 0 ] && echo "  ($killed of $REPS killed at ${LIMIT}s)")"
done
awk -v u="$(med urlget 1)" -v b="$(med base 1)" -v l="$(med lftp 1)" 'BEGIN {
	printf "== peak RSS ratios: urlget/base %.2f, urlget/lftp %.2f\n", u / b, u / l
	printf "== target urlget <= 256 MiB: %s (%d MiB)\n", (u <= 256 * 1024) ? "met" : "MISSED", u / 1024
}'
fi

if section 2; then
	# tree DIR FILES: FILES files of 1 KiB, 100 a directory.
	tree() {
		local d=$1 n=$2 i
		for ((i = 0; i < n / 100; i++)); do
			mkdir -p "$d/d$i"
			head -c $((100 * 1024)) /dev/urandom | split -b 1024 -a 2 - "$d/d$i/f"
		done
	}
	echo "== real trees under $trees"
	for n in 10000 100000; do
		tree "$trees/src$n" "$n"
		for r in $(seq "$REPS"); do
			for name in urlget base; do
				b=$bin
				[ $name = base ] && b=$base
				rm -rf "$trees/dst"
				measure "$name-$n" "$b" mirror -s "file://$trees/src$n/" "$trees/dst"
			done
		done
		rm -rf "$trees/dst"
	done
	echo "== medians of $REPS rounds (peak RSS MiB, seconds)"
	for name in urlget-10000 urlget-100000 base-10000 base-100000; do
		printf '   %-13s %6d MiB  %6.1f s\n' "$name" $(($(med "$name" 1 | cut -d. -f1) / 1024)) "$(med "$name" 2)"
	done
	awk -v a="$(med urlget-10000 1)" -v b="$(med urlget-100000 1)" -v c="$(med base-10000 1)" -v d="$(med base-100000 1)" 'BEGIN {
		printf "== peak RSS 100,000 files / 10,000 files: urlget %.2f, base %.2f\n", b / a, d / c
	}'
fi

if section 3; then
	echo "== a listing alone: urlget ls of 1,000 and of $M entries (hostileserve ftp-wide), to /dev/null; $REPS rounds"
	for n in 1000 "$M"; do
		"$work/hostileserve" ftp-wide "$n" >"$work/port" &
		srv_pid=$!
		for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
		port=$(cat "$work/port")
		: >"$work/port"
		url=ftp://127.0.0.1:$port/
		got=$("$bin" ls -s --allow-port "$port" "$url" | wc -l)
		[ "$got" -eq "$n" ] || { echo "urlget ls: $got entries, want $n" >&2; exit 1; }
		for r in $(seq "$REPS"); do
			measure "ls-$n" "$bin" ls -s --allow-port "$port" "$url"
			measure "curl-$n" curl -sS "$url"
		done
		kill "$srv_pid"
		wait "$srv_pid" 2>/dev/null || true
		srv_pid=
	done
	echo "== medians of $REPS rounds (peak RSS MiB, seconds); every entry counted"
	for name in ls-1000 "ls-$M" curl-1000 "curl-$M"; do
		printf '   %-13s %6.1f MiB  %6.2f s\n' "$name" "$(awk -v k="$(med "$name" 1)" 'BEGIN { print k / 1024 }')" "$(med "$name" 2)"
	done
	awk -v a="$(med ls-1000 1)" -v b="$(med "ls-$M" 1)" -v m="$M" 'BEGIN {
		printf "== urlget ls peak RSS, %d entries - 1,000 entries: %+.1f MiB (flat: %s)\n", m, (b - a) / 1024, (b - a <= 8 * 1024) ? "met" : "MISSED"
	}'
fi
