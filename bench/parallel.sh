#!/usr/bin/env bash
# bench/parallel.sh — 200 files by URL list, N at once (default 8): urlget
# -Z --parallel-max N vs curl -Z --parallel-max N vs aria2c -jN, over FTP
# (vsftpd, 2121) and HTTP (nginx, 8080), on the test bed's fixture files
# many/file-0001.txt … file-0200.txt (15 bytes each: the bench measures
# what each file costs — commands, round trips, connections —, not bytes).
# REPS rounds (default 7) in which every client runs once in turn, so
# that a disturbance of the machine hits every client alike; the figures
# are the median wall time and the ratios urlget/curl and urlget/aria2c
# (target <= 1.0 for both), urlget's pace as a fraction of the limit
# (bench/cmd/limit: the least a client can do), and the best run (on a machine busy with
# other work, the least disturbed). Every run's 200 files are checked by SHA-256
# against the fixtures': a client that is fast because it skips or mangles
# files fails the bench. The FTP logins of urlget's last run are counted
# from its -v trace in a run of its own.
#
# WAN=40ms,20MiB/s (see bench/wan.sh) runs everything through toxiproxy on
# 127.0.0.2 (a round trip of 40 ms, 20 MiB/s per connection); REPS then
# defaults to 5. aria2c's FTP uses PASV, whose reply names vsftpd's
# 127.0.0.1: its data connections bypass the WAN (its control connection
# does not), which flatters it there; the table says so. aria2c's FTP runs
# with --ftp-reuse-connection=false: with its default it stalls 60 s.
#
# Environment: REPS, N, URLGET_BIN (a binary to time instead of building
# ./cmd/urlget), BENCH_DIR (where the files go; default bench/), ONLY
# ("ftp", "http"; default both). aria2 is installed from Debian when
# missing (apt-get, as root).
# Needs: the stack up (integration/stack.sh up), curl, sha256sum.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -n "${WAN:-}" ]; then REPS=${REPS:-5}; else REPS=${REPS:-7}; fi
N=${N:-8}
ONLY=${ONLY:-ftp http}
FILES=200
. bench/lib.sh
need aria2:aria2c curl:curl
fixtures=integration/.run/fixtures
[ -f "$fixtures/many/file-0200.txt" ] || { echo "no fixture tree: is the stack up (integration/stack.sh up)?" >&2; exit 1; }

work=$(mktemp -d)
out=$(mktemp -d "${BENCH_DIR:-$root/bench}/.parallel.XXXXXX")
. bench/wan.sh
trap 'wan_down; rm -rf "$work" "$out"' EXIT
bin=${URLGET_BIN:-$work/urlget}
[ -n "${URLGET_BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
limit=
if [ -d bench/cmd/limit ]; then
	limit=$work/limit
	go build -o "$limit" ./bench/cmd/limit
fi
wan_up

names=()
for i in $(seq 1 "$FILES"); do names+=("$(printf 'file-%04d.txt' "$i")"); done
want=$(cd "$fixtures/many" && sha256sum "${names[@]}" | sha256sum | cut -d' ' -f1)

# lists PROTO PORT: the URL list (one a line, for urlget and aria2c) and
# curl's config file (url = "...", one a line) of PROTO's 200 files.
lists() {
	local proto=$1 port=$2 n
	: >"$work/$proto.list"
	: >"$work/$proto.curl"
	for n in "${names[@]}"; do
		echo "$proto://$host:$port/many/$n" >>"$work/$proto.list"
		echo "url = \"$proto://$host:$port/many/$n\"" >>"$work/$proto.curl"
	done
}
lists ftp 2121
lists http 8080

# argv CLIENT PROTO DEST: CLIENT's command line fetching PROTO's list into
# DEST, N at once.
argv() {
	local c=$1 proto=$2 dest=$3
	case $c in
	urlget) cmd=("$bin" -s -Z --parallel-max "$N" -O --output-dir "$dest" -i "$work/$proto.list") ;;
	curl) cmd=(curl -sS -Z --parallel-max "$N" --remote-name-all --output-dir "$dest" -K "$work/$proto.curl") ;;
	limit) cmd=("$limit" -n "$N" -i "$work/$proto.list") ;;
	aria2c)
		cmd=(aria2c -q -j "$N" --file-allocation=none --auto-file-renaming=false -d "$dest" -i "$work/$proto.list")
		# Its default reuse of FTP logins stalls 60 s (its --timeout) on
		# "Timeout before receiving transfer complete" against vsftpd:
		# without reuse it takes 0.26 s for 20 files.
		[ "$proto" != ftp ] || cmd+=(--ftp-reuse-connection=false)
		;;
	esac
}

# check DIR WHO: DIR must hold the 200 files, each the fixture's.
check() {
	local got
	got=$(cd "$1" && sha256sum "${names[@]}" 2>/dev/null | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "$2: the files differ from the fixtures' (or some are missing)" >&2; exit 1; }
}

# limit is bench/cmd/limit: one login or connection per connection and
# only RETR or GET per file, the bytes into /dev/null, no checks — what
# the server delivers at most, which urlget's time is reported against
# (left out where bench/cmd/limit is not in the tree).
clients=(urlget curl aria2c)
[ -z "$limit" ] || clients+=(limit)

# bench PROTO: REPS rounds of every client in turn, each run checked;
# medians and ratios.
bench() {
	local proto=$1 c i t dest
	declare -A wall med
	for i in $(seq "$REPS"); do
		for c in "${clients[@]}"; do
			dest=$out/$proto-$c-$i
			mkdir -p "$dest"
			argv "$c" "$proto" "$dest"
			t=$(now)
			# stderr to a file: curl 7.88 draws its -Z meter even with -s.
			"${cmd[@]}" >"$work/stdout" 2>"$work/stderr" || { cat "$work/stderr" >&2; echo "$c ($proto): failed: ${cmd[*]}" >&2; exit 1; }
			wall[$c]+="$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') "
			# limit writes no file: it says how many it fetched.
			if [ "$c" = limit ]; then
				[ "$(awk '{ print $3 }' "$work/stdout")" = "$FILES" ] || { echo "limit ($proto): $(cat "$work/stdout")" >&2; exit 1; }
			else
				check "$dest" "$c ($proto, round $i)"
			fi
			rm -rf "$dest"
		done
	done
	for c in "${clients[@]}"; do
		med[$c]=$(printf '%s\n' ${wall[$c]} | median)
		printf '| %-6s | %s | %s | %s |\n' "$c" "${med[$c]}" "$(printf '%s\n' ${wall[$c]} | sort -n | head -1)" "${wall[$c]% }"
	done
	awk -v u="${med[urlget]}" -v c="${med[curl]}" -v a="${med[aria2c]}" \
		'BEGIN { printf "ratio urlget/curl: %.2f, urlget/aria2c: %.2f (target <= 1.0 each); SHA-256 of every file checked\n", u / c, u / a }'
	[ -z "$limit" ] || awk -v u="${med[urlget]}" -v l="${med[limit]}" 'BEGIN { printf "urlget at %.0f %% of the limit (limit/urlget)\n", 100 * l / u }'
	if [ "$proto" = ftp ]; then
		dest=$out/ftp-logins
		mkdir -p "$dest"
		argv urlget ftp "$dest"
		cmd[1]=-v
		local logins
		logins=$("${cmd[@]}" 2>&1 >/dev/null | grep -c '> USER ' || true)
		check "$dest" "urlget -v (ftp)"
		echo "urlget's FTP logins for $FILES files, $N at once: $logins"
	fi
}

where="loopback"
[ -z "${WAN:-}" ] || where="over the WAN ($WAN_SPEC, through $host)"
for proto in $ONLY; do
	echo "== $proto: $FILES files by URL list, $N at once, $where, $REPS rounds"
	[ "$proto" != ftp ] || [ -z "${WAN:-}" ] || echo "(aria2c's FTP data connections go to PASV's 127.0.0.1: they bypass the WAN)"
	echo "| client | median s | best s | runs s |"
	echo "|---|---|---|---|"
	bench "$proto"
done
