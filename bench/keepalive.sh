#!/usr/bin/env bash
# bench/keepalive.sh — what one connection is worth: 200 small files by URL
# list, one after another (no -Z), over HTTP (nginx, 8080) and FTP
# (vsftpd, 2121), urlget against curl (one command for the list, which
# keeps its connection) and, over HTTP, wget -i (HTTP/1.1 keep-alive).
# Each client runs once a round, REPS rounds (default 5), medians; every
# run's files checked by SHA-256 against the fixtures'. Then one run of
# each under strace counts the TCP connections it opened: HTTP/1.1
# keep-alive (and one FTP login) means one for the whole list — 200 files
# over a 40 ms round trip then take about 200 round trips (8 s), where a
# connection a file would cost 400 (HTTP) and more (an FTP login a file);
# urlget's GETs go ahead on the connection (HTTP/1.1 pipelining, up to 32
# outstanding), so its 200 take some ten round trips.
# The figures are the median, the time a file, and that time in round
# trips (over a WAN). TMPDIR=/dev/shm puts the files in a tmpfs, where
# the file system's costs (ext4's inode allocation after many deletions
# can dominate) leave the clients' own.
#
# WAN=40ms,20MiB/s (see bench/wan.sh) runs everything through toxiproxy on
# 127.0.0.2. wget's FTP takes PASV's 127.0.0.1 and so bypasses the WAN: it
# is timed over HTTP only.
# Environment: REPS, URLGET_BIN (a binary to time instead of building
# ./cmd/urlget), ONLY ("http", "ftp"; default both). strace is installed
# from Debian when missing (apt-get, as root).
# Needs: the stack up (integration/stack.sh up), curl, wget, sha256sum.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
REPS=${REPS:-5}
ONLY=${ONLY:-http ftp}
FILES=200
. bench/lib.sh
need strace:strace curl:curl wget:wget
fixtures=integration/.run/fixtures
[ -f "$fixtures/many/file-0200.txt" ] || { echo "no fixture tree: is the stack up (integration/stack.sh up)?" >&2; exit 1; }

work=$(mktemp -d)
. bench/wan.sh
trap 'wan_down; rm -rf "$work"' EXIT
bin=${URLGET_BIN:-$work/urlget}
[ -n "${URLGET_BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
wan_up

names=()
for i in $(seq 1 "$FILES"); do names+=("$(printf 'file-%04d.txt' "$i")"); done
want=$(cd "$fixtures/many" && sha256sum "${names[@]}" | sha256sum | cut -d' ' -f1)
for proto in http ftp; do
	port=8080
	[ "$proto" = http ] || port=2121
	: >"$work/$proto.list"
	: >"$work/$proto.curl"
	for n in "${names[@]}"; do
		echo "$proto://$host:$port/many/$n" >>"$work/$proto.list"
		echo "url = \"$proto://$host:$port/many/$n\"" >>"$work/$proto.curl"
	done
done

# argv CLIENT PROTO DEST: CLIENT's command line fetching PROTO's list
# into DEST, one file after another.
argv() {
	local c=$1 proto=$2 dest=$3
	case $c in
	urlget) cmd=("$bin" -s -O --output-dir "$dest" -i "$work/$proto.list") ;;
	curl) cmd=(curl -sS --remote-name-all --output-dir "$dest" -K "$work/$proto.curl") ;;
	wget) cmd=(wget -q -P "$dest" -i "$work/$proto.list") ;;
	esac
}

check() {
	local got
	got=$(cd "$1" && sha256sum "${names[@]}" 2>/dev/null | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "$2: the files differ from the fixtures' (or some are missing)" >&2; exit 1; }
}

rtt_ms=0
[ -z "${WAN:-}" ] || rtt_ms=$(sed -E 's/^([0-9]+)ms.*/\1/' <<<"$WAN_SPEC")

bench() {
	local proto=$1 c i t dest
	local -a clients=(urlget curl)
	[ "$proto" != http ] || clients+=(wget)
	declare -A wall
	for i in $(seq "$REPS"); do
		for c in "${clients[@]}"; do
			dest=$work/out-$proto-$c-$i
			mkdir -p "$dest"
			argv "$c" "$proto" "$dest"
			t=$(now)
			"${cmd[@]}" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; echo "$c ($proto): failed: ${cmd[*]}" >&2; exit 1; }
			wall[$c]+="$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') "
			check "$dest" "$c ($proto, round $i)"
			rm -rf "$dest"
		done
	done
	for c in "${clients[@]}"; do
		dest=$work/out-$proto-$c-strace
		mkdir -p "$dest"
		argv "$c" "$proto" "$dest"
		strace -f -qq -e trace=connect -o "$work/strace" "${cmd[@]}" >/dev/null 2>&1
		check "$dest" "$c under strace ($proto)"
		rm -rf "$dest"
		# Connections to the server's ports (control 2121 or 8080; FTP's
		# data connections to the others), on $host; DNS and the like left out.
		local ctl data m
		ctl=$(grep -c "sin_port=htons($([ "$proto" = http ] && echo 8080 || echo 2121)), sin_addr=inet_addr(\"$host\")" "$work/strace" || true)
		data=$(grep "sin_addr=inet_addr(\"$host\")" "$work/strace" | grep -vc "sin_port=htons(\(8080\|2121\))" || true)
		m=$(printf '%s\n' ${wall[$c]} | median)
		awk -v c="$c" -v m="$m" -v n="$FILES" -v r="$rtt_ms" -v ctl="$ctl" -v data="$data" -v runs="${wall[$c]% }" -v ftp="$([ "$proto" = ftp ] && echo 1 || echo 0)" 'BEGIN {
			per = 1000 * m / n
			printf "| %-6s | %.3f | %.1f | %s | %d%s | %s |\n", c, m, per, (r > 0) ? sprintf("%.2f", per / r) : "—", ctl, ftp ? sprintf(" (+%d data)", data) : "", runs
		}'
	done
}

where="loopback"
[ -z "${WAN:-}" ] || where="over the WAN ($WAN_SPEC, through $host)"
for proto in $ONLY; do
	echo "== $proto: $FILES files by URL list, one after another, $where, $REPS rounds; every file checked by SHA-256"
	echo "| client | median s | ms a file | round trips a file | connections | runs s |"
	echo "|---|---|---|---|---|---|"
	bench "$proto"
done
