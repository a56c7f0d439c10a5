#!/usr/bin/env bash
# bench/segments.sh — one 256 MiB file over several connections (issue 26):
# urlget --segments 4 against curl (one connection), aria2c -x4 -s4 and
# lftp pget -n 4, over HTTP (a bench nginx of its own, sendfile on, like
# bench/http.sh's) and over FTP (the test bed's vsftpd, the file in /tmp as
# bench/ftp.sh makes it). REPS rounds, the clients alternating in each;
# medians; every output checked by SHA-256 against the server's copy.
#
# WAN=40ms,20MiB/s (see bench/wan.sh) puts both servers behind toxiproxy
# on WAN_ADDR (default 127.0.0.2): a round trip of 40 ms and 20 MiB/s per
# connection, where several connections pay (targets: urlget <= 0.30 x
# curl, <= 1.0 x aria2c and lftp). On loopback the servers and two cores
# set the pace, and the rows are for information.
#
# Environment: REPS (default 5; 3 over a WAN), ONLY ("http", "ftp";
# default both), URLGET_BIN (a built binary instead of ./cmd/urlget),
# BENCH_PORT (the bench nginx, default 8098). aria2 and lftp are installed
# from Debian when missing (apt-get, as root).
# Needs: the stack up (integration/stack.sh up), docker, curl, sha256sum.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -n "${WAN:-}" ]; then REPS=${REPS:-3}; else REPS=${REPS:-5}; fi
ONLY=${ONLY:-http ftp}
PORT=${BENCH_PORT:-8098}
. bench/lib.sh
need aria2:aria2c lftp:lftp curl:curl
for t in sha256sum docker; do
	command -v "$t" >/dev/null || { echo "$t not installed" >&2; exit 1; }
done
vsftpd=$(docker ps --filter label=com.docker.compose.service=vsftpd --format '{{.Names}}' | head -n1)
[ -n "$vsftpd" ] || { echo "vsftpd container not running (integration/stack.sh up)" >&2; exit 1; }
image=urlget-testbed-nginx
work=$(mktemp -d)
out=$(mktemp -d "${BENCH_DIR:-$root/bench}/.out.XXXXXX")
ctr=urlget-bench-segments-$$
. bench/wan.sh
trap 'wan_down; docker rm -f "$ctr" >/dev/null 2>&1 || true; rm -rf "$work" "$out"' EXIT
bin=${URLGET_BIN:-$work/urlget}
[ -n "${URLGET_BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget

docker exec "$vsftpd" sh -c '[ -s /tmp/bench-256M.bin ] || head -c 268435456 /dev/urandom > /tmp/bench-256M.bin; chmod a+r /tmp/bench-256M.bin'
ftp_sum=$(docker exec "$vsftpd" sha256sum /tmp/bench-256M.bin | cut -d' ' -f1)
http_sum=
if [[ " $ONLY " == *" http "* ]]; then
	# The test bed's nginx image, serving a file of its own: the
	# fixture tree is not to hold 256 MiB.
	docker run -d --rm --name "$ctr" --network host --entrypoint sh "$image" -c "
set -e
mkdir -p /srv/segments
head -c 268435456 /dev/urandom > /srv/segments/bench-256M.bin
printf '%s' 'pid /run/nginx-segments.pid; worker_processes 2; events {} http { sendfile on; access_log off; server { listen 127.0.0.1:$PORT; root /srv/segments; } }' > /etc/nginx/segments.conf
exec nginx -g 'daemon off;' -c /etc/nginx/segments.conf" >/dev/null
	for _ in $(seq 150); do
		curl -sfI "http://127.0.0.1:$PORT/bench-256M.bin" >/dev/null 2>&1 && break
		sleep 0.2
	done
	curl -sfI "http://127.0.0.1:$PORT/bench-256M.bin" >/dev/null || { echo "the bench nginx did not come up" >&2; docker logs "$ctr" >&2; exit 1; }
	http_sum=$(docker exec "$ctr" sha256sum /srv/segments/bench-256M.bin | cut -d' ' -f1)
fi
wan_up "127.0.0.1:$PORT"

# timed SUM FILE CMD...: the seconds CMD took, once FILE has SUM.
timed() {
	local sum=$1 file=$2 t
	shift 2
	rm -f "$file"
	sync
	t=$(now)
	"$@" >/dev/null 2>"$work/err" || { echo "failed: $* — $(tail -3 "$work/err")" >&2; exit 1; }
	awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f\n", b - a }'
	local got
	got=$(sha256sum "$file" | cut -d' ' -f1)
	[ "$got" = "$sum" ] || { echo "$*: SHA-256 $got, want $sum" >&2; exit 1; }
	rm -f "$file"
}

# row PROTO URL SUM: one table.
row() {
	local proto=$1 url=$2 sum=$3 lftp_set="set xfer:clobber on; set net:max-retries 1"
	[ "$proto" = ftp ] && lftp_set="$lftp_set; set ftp:ssl-allow no${WAN:+; set ftp:ignore-pasv-address yes}"
	local aria=(aria2c -q -x4 -s4 -k1M --allow-overwrite=true --auto-file-renaming=false --file-allocation=none -d "$out")
	[ "$proto" = ftp ] && aria+=(--ftp-reuse-connection=false)
	local u=() c=() a=() l=()
	for _ in $(seq "$REPS"); do
		u+=("$(timed "$sum" "$out/u.bin" "$bin" -s --segments 4 -o "$out/u.bin" "$url")")
		a+=("$(timed "$sum" "$out/a.bin" "${aria[@]}" -o a.bin "$url")")
		l+=("$(timed "$sum" "$out/l.bin" lftp -c "$lftp_set; pget -n 4 '$url' -o $out/l.bin")")
		c+=("$(timed "$sum" "$out/c.bin" curl -sS -o "$out/c.bin" "$url")")
	done
	local um cm am lm
	um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
	am=$(printf '%s\n' "${a[@]}" | median); lm=$(printf '%s\n' "${l[@]}" | median)
	echo "| client | $proto, 256 MiB, runs (s) | median (s) | urlget / client |"
	echo "|---|---|---|---|"
	echo "| urlget --segments 4 | ${u[*]} | $um | |"
	for peer in "curl (one connection):$cm:${c[*]}" "aria2c -x4 -s4:$am:${a[*]}" "lftp pget -n 4:$lm:${l[*]}"; do
		IFS=: read -r name med runs <<<"$peer"
		awk -v n="$name" -v r="$runs" -v m="$med" -v u="$um" 'BEGIN { printf "| %s | %s | %s | %.2f |\n", n, r, m, u / m }'
	done
}

where=loopback
[ -z "${WAN:-}" ] || where="WAN $WAN_SPEC"
echo "== 256 MiB over 4 connections, $REPS rounds alternating, $where"
if [[ " $ONLY " == *" http "* ]]; then
	row http "http://$host:$PORT/bench-256M.bin" "$http_sum"
fi
if [[ " $ONLY " == *" ftp "* ]]; then
	row ftp "ftp://alice:secret@$host:2121/%2Ftmp/bench-256M.bin" "$ftp_sum"
fi
