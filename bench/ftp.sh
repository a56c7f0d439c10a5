#!/usr/bin/env bash
# bench/ftp.sh — urlget vs curl (and lftp, when installed) on the test bed:
#   1. one 256 MiB file to stdout (/dev/null) and into a file (-o) from
#      vsftpd (2121): wall time (median of REPS), ratio urlget/curl;
#   2. 2,000 files of 4 KiB named on one command line, from vsftpd: wall
#      time, ratio, and the FTP commands per file each client sent (from
#      vsftpd's protocol log);
#   3. the 2,000 files of the fixtures' many/ directory from vsftpd, proftpd
#      and pure-ftpd, one run fetching them all: the commands per file each
#      client sends (counted in its own -v/-d trace, so that other clients
#      of the shared servers do not count) and the wall time (median of
#      REPS); the target is at most 4 commands a file for urlget;
#   4. peak RSS of the 256 MiB download (and of a 64 MiB one, to show it is
#      flat in file size), from /usr/bin/time -v.
# In 1 (to stdout) and 2, the limit: bench/cmd/limit fetching the same
# files on one connection (RETR only, the bytes spliced into /dev/null,
# nothing else), in the same rounds; urlget's time is given as a fraction
# of it (limit's time / urlget's: 1.0 is all the server delivers).
# The files of 1 and 2 are created inside the vsftpd container under /tmp
# (not part of the fixture tree) and fetched as alice with absolute (%2F)
# paths.
# Environment: REPS (default 5); BIN, a urlget binary to measure instead of
# one built from this tree; BASE, a second urlget binary (an older build)
# timed and counted alongside in the same run, so that a before/after
# comparison shares the machine's load (its figures are labelled "base");
# ONLY, the sections to run (e.g. ONLY="3" or ONLY="1 3"; default all).
# WAN=40ms,20MiB/s (see bench/wan.sh): every client reaches vsftpd over a
# WAN, control and data connections, through toxiproxy on 127.0.0.2:2121
# and 127.0.0.2:30000–30099 (urlget and curl by EPSV, lftp by PASV with
# ftp:ignore-pasv-address); REPS then defaults to 3 and ONLY to "1 4"
# (2,000 files cost a few round trips each), and section 3 asks vsftpd
# only (the other servers' passive ports are not proxied).
# Needs: the stack up (integration/stack.sh up), curl, /usr/bin/time;
# lftp for its figures in 3 (apt-get install lftp).
set -euo pipefail
shopt -s inherit_errexit # a failed run inside $(timeit ...) stops the bench
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -n "${WAN:-}" ]; then
	REPS=${REPS:-3} ONLY=${ONLY:-1 4}
else
	REPS=${REPS:-5} ONLY=${ONLY:-1 2 3 4}
fi
BASE=${BASE:-}
section() { [[ " $ONLY " == *" $1 "* ]]; }
trap 'echo "bench/ftp.sh: line $LINENO: a command failed" >&2' ERR
# The compose service, not a name match: vsftpd-ftps is another container.
ctr=$(docker ps --filter label=com.docker.compose.service=vsftpd --format '{{.Names}}' | head -n1)
[ -n "$ctr" ] || { echo "vsftpd container not running (integration/stack.sh up)" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl not installed" >&2; exit 1; }
log=integration/.run/logs/vsftpd/vsftpd.log

tmp=$(mktemp -d)
. bench/wan.sh
trap 'wan_down; rm -rf "$tmp"' EXIT
bin=${BIN:-$tmp/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
limit=$tmp/limit
go build -o "$limit" ./bench/cmd/limit

docker exec "$ctr" sh -c '
  [ -s /tmp/bench-256M.bin ] || head -c 268435456 /dev/urandom > /tmp/bench-256M.bin
  [ -s /tmp/bench-64M.bin ] || head -c 67108864 /dev/urandom > /tmp/bench-64M.bin
  if [ ! -d /tmp/bench-many ] || [ "$(ls /tmp/bench-many | wc -l)" -ne 2000 ]; then
    mkdir -p /tmp/bench-many && cd /tmp/bench-many
    for i in $(seq -w 1 2000); do head -c 4096 /dev/urandom > f$i.bin; done
  fi
  chmod -R a+rX /tmp/bench-256M.bin /tmp/bench-64M.bin /tmp/bench-many'

wan_up
base="ftp://alice:secret@$host:2121/%2Ftmp"
big="$base/bench-256M.bin"
many=()
for i in $(seq -w 1 2000); do many+=("$base/bench-many/f$i.bin"); done

. bench/lib.sh
timeit() { local t=$(now); "$@" >/dev/null; awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.4f\n", b - a }'; }
# time_base NAME ARGS...: with BASE set, add to the array NAME the time of
# BASE run with ARGS. report_base NAME URLGET_MEDIAN: its median and the
# ratio of urlget's to it.
time_base() {
	[ -n "$BASE" ] || return 0
	local -n times_=$1
	times_+=("$(timeit "$BASE" "${@:2}")")
}
# report_limit URLGET_MEDIAN: the limit's times (the array l), their
# median, and urlget's figure as a fraction of it.
report_limit() {
	local lm
	lm=$(printf '%s\n' "${l[@]}" | median)
	echo "limit:  ${l[*]}  median ${lm}s (RETR only, one connection)"
	awk -v u="$1" -v l="$lm" 'BEGIN { printf "urlget at %.2f of the limit (limit/urlget)\n", l / u }'
}
report_base() {
	[ -n "$BASE" ] || return 0
	local -n arr=$1
	local bm
	bm=$(printf '%s\n' "${arr[@]}" | median)
	echo "base:   ${arr[*]}  median ${bm}s"
	awk -v a="$2" -v b="$bm" 'BEGIN { printf "ratio urlget/base: %.2f\n", a / b }'
}

# The loopback target; over a WAN the link sets the pace of both clients.
target=" (target <= 0.9)"
[ -z "${WAN:-}" ] || target=" (over the WAN, $WAN_SPEC)"
if section 1; then
echo "== 256 MiB file to stdout (/dev/null), $REPS repetitions (alternating)"
u=(); c=(); b=(); l=()
for _ in $(seq "$REPS"); do
	u+=("$(timeit "$bin" -s "$big")")
	time_base b -s "$big"
	c+=("$(timeit curl -sS "$big")")
	l+=("$(timeit "$limit" "$big")")
done
um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
echo "urlget: ${u[*]}  median ${um}s"
echo "curl:   ${c[*]}  median ${cm}s"
awk -v a="$um" -v b="$cm" -v t="$target" 'BEGIN { printf "ratio urlget/curl: %.2f%s\n", a / b, t }'
report_limit "$um"
report_base b "$um"

# Neither urlget nor curl waits for the disk here (urlget --fsync would);
# the time of the disk's writes after the run is neither's.
echo "== 256 MiB file into a file (-o) on the local disk, $REPS repetitions (alternating)"
out=$(mktemp -d "$root/bench/.out.XXXXXX")
trap 'wan_down; rm -rf "$tmp" "$out"' EXIT
u=(); c=(); b=()
for _ in $(seq "$REPS"); do
	sync # start each run with no dirty pages left by the one before
	u+=("$(timeit "$bin" -s -o "$out/u.bin" "$big")")
	sync
	time_base b -s -o "$out/b.bin" "$big"
	sync
	c+=("$(timeit curl -sS -o "$out/c.bin" "$big")")
done
cmp -s "$out/u.bin" "$out/c.bin" || { echo "urlget's and curl's files differ" >&2; exit 1; }
rm -f "$out/u.bin" "$out/c.bin" "$out/b.bin"
um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
echo "urlget: ${u[*]}  median ${um}s"
echo "curl:   ${c[*]}  median ${cm}s"
awk -v a="$um" -v b="$cm" -v t="$target" 'BEGIN { printf "ratio urlget/curl: %.2f%s\n", a / b, t }'
report_base b "$um"
fi

if section 2; then
echo "== 2,000 x 4 KiB files on one command line, $REPS repetitions"
count_cmds() { # count_cmds OFFSET: FTP commands logged since OFFSET
	tail -c +"$(($1 + 1))" "$log" | grep -c 'FTP command:' || true
}
u=(); c=(); b=(); l=(); ucmd=0; ccmd=0; bcmd=0
for _ in $(seq "$REPS"); do
	l+=("$(timeit "$limit" "${many[@]}")")
	off=$(stat -c %s "$log")
	u+=("$(timeit "$bin" -s "${many[@]}")")
	sleep 0.5; ucmd=$(count_cmds "$off")
	if [ -n "$BASE" ]; then
		off=$(stat -c %s "$log")
		time_base b -s "${many[@]}"
		sleep 0.5; bcmd=$(count_cmds "$off")
	fi
	off=$(stat -c %s "$log")
	c+=("$(timeit curl -sS "$base/bench-many/f[0001-2000].bin")")
	sleep 0.5; ccmd=$(count_cmds "$off")
done
um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
echo "urlget: ${u[*]}  median ${um}s"
echo "curl:   ${c[*]}  median ${cm}s"
awk -v a="$um" -v b="$cm" 'BEGIN { printf "ratio urlget/curl: %.2f\n", a / b }'
report_limit "$um"
report_base b "$um"
awk -v a="$ucmd" -v b="$ccmd" 'BEGIN { printf "commands per file: urlget %.2f, curl %.2f\n", a / 2000, b / 2000 }'
[ -z "$BASE" ] || awk -v a="$bcmd" 'BEGIN { printf "commands per file: base %.2f\n", a / 2000 }'
fi

if section 3; then
echo "== the 2,000 files of many/ from each FTP server, one run each; commands per file (from each client's trace), $REPS timed repetitions"
have_lftp=$(command -v lftp || true)
[ -n "$have_lftp" ] || echo "(lftp not installed: no lftp figures)"
lftp_script="$tmp/many.lftp"
servers=(vsftpd:2121 proftpd:2122 pureftpd:2123)
[ -z "${WAN:-}" ] || servers=(vsftpd:2121)
for server in "${servers[@]}"; do
	name=${server%%:*} port=${server##*:}
	addr=$host:$port
	urls=()
	for i in $(seq -w 1 2000); do urls+=("ftp://$addr/many/file-$i.txt"); done
	# lftp as a person would script it: one get per file over one session,
	# without TLS (pure-ftpd offers it), into a scratch directory.
	{
		echo "set ftp:ssl-allow no; set xfer:clobber on; set cmd:fail-exit yes${WAN:+; set ftp:ignore-pasv-address yes}; open ftp://$addr"
		for i in $(seq -w 1 2000); do echo "get many/file-$i.txt -o $tmp/lftp-out"; done
	} >"$lftp_script"
	# Commands per file: the lines each client's trace marks as sent,
	# login included, over the 2,000 files.
	sent() { "$@" -v -s "${urls[@]}" 2>&1 >/dev/null | grep -cE '^(\[[0-9]+\] )?> ' || true; }
	ucmd=$(sent "$bin")
	bcmd=
	[ -z "$BASE" ] || bcmd=$(sent "$BASE")
	ccmd=$(curl -v -sS "ftp://$addr/many/file-[0001-2000].txt" 2>&1 >/dev/null | grep -cE '^> ' || true)
	lcmd=
	[ -z "$have_lftp" ] || lcmd=$(lftp -d -f "$lftp_script" 2>&1 | grep -c '^---> ' || true)
	u=(); c=(); l=(); b=()
	for _ in $(seq "$REPS"); do
		u+=("$(timeit "$bin" -s "${urls[@]}")")
		time_base b -s "${urls[@]}"
		c+=("$(timeit curl -sS "ftp://$addr/many/file-[0001-2000].txt")")
		[ -z "$have_lftp" ] || l+=("$(timeit lftp -f "$lftp_script")")
	done
	um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
	line=$(awk -v a="$ucmd" -v b="$ccmd" 'BEGIN { printf "commands per file: urlget %.2f (target <= 4), curl %.2f", a / 2000, b / 2000 }')
	times="median time: urlget ${um}s, curl ${cm}s"
	if [ -n "$have_lftp" ]; then
		lm=$(printf '%s\n' "${l[@]}" | median)
		line+=$(awk -v a="$lcmd" 'BEGIN { printf ", lftp %.2f", a / 2000 }')
		times+=", lftp ${lm}s"
	fi
	if [ -n "$BASE" ]; then
		bm=$(printf '%s\n' "${b[@]}" | median)
		line+=$(awk -v a="$bcmd" 'BEGIN { printf ", base %.2f", a / 2000 }')
		times+=", base ${bm}s"
	fi
	echo "$name: $line; $times"
done
fi

if section 4; then
echo "== peak RSS (/usr/bin/time -v)"
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { printf "%.1f MiB\n", $2 / 1024 }'; }
echo "urlget 256 MiB: $(rss "$bin" -s "$big")"
echo "urlget  64 MiB: $(rss "$bin" -s "$base/bench-64M.bin")"
echo "curl   256 MiB: $(rss curl -sS "$big")"
fi
