#!/usr/bin/env bash
# bench/http.sh — urlget vs curl vs wget downloading one 256 MiB file from
# nginx, in one run:
#   1. http into a file (-o) on the local disk;
#   2. http to stdout, a pipe (into cat, which discards it);
#   3. and 4. the same over https, for information: TLS cannot splice, so
#      they show what the plain path gains;
#   5. peak RSS of the download (/usr/bin/time -v).
# After 1 and 2, the limit: bench/cmd/limit GETting the file on one
# connection (the bytes spliced into /dev/null, nothing else), REPS times;
# urlget's median of each row is given as a fraction of it (limit's time /
# urlget's: 1.0 is all the server delivers).
# Each is REPS rounds in which every client runs once in turn, so that a
# disturbance of the machine hits every client alike; the figures are the
# median wall time, the ratios urlget/curl (target <= 0.9 for http) and
# urlget/wget, and the median CPU time (user + system) of the client
# process, which a busy machine disturbs less. Every client's output is
# checked by SHA-256 against the file's, outside the timed runs: a client
# that is fast because it drops or mangles bytes fails the bench.
#
# The files go to BENCH_DIR (default: bench/, the repository's disk).
# Like curl and wget, urlget leaves a finished file to the kernel to write
# to disk; the file rows also time "fsync", urlget --fsync, which waits
# until the file is on disk before renaming it into place, for what that
# durability costs (on a fast transfer, about the disk's write time).
# BENCH_DIR=/dev/shm leaves the disk out: the rows show the transfer alone.
#
# The test bed's nginx serves only the fixture tree, which other tests list,
# so the file is served by a second nginx from the same image
# (urlget-testbed-nginx, built by integration/stack.sh up) with the test
# bed's settings (sendfile on, one worker), on 127.0.0.1:BENCH_PORT (8099)
# and BENCH_TLS_PORT (8499). The file (random bytes, so that no compression
# anywhere helps) is made inside that container, which is removed on exit.
#
# URLGET_BIN=path times that binary instead of building ./cmd/urlget;
# URLGET_BEFORE=path also times another one (say, built from the commit
# before a change) as "before", in the same rounds. On a machine busy
# with other work, BENCH_NICE=-15 (root only) runs the clients, cat and
# nginx at that priority, which steadies the figures a great deal.
#
# WAN=40ms,20MiB/s (see bench/wan.sh) runs the http rows over a WAN: every
# client fetches through toxiproxy on 127.0.0.2:BENCH_PORT (a round trip
# of 40 ms, 20 MiB/s per connection). REPS then defaults to 3 (a 256 MiB
# run takes about 13 s), and the https rows are left out: the test CA's
# certificate names 127.0.0.1, not the WAN's address.
# Needs: docker, the nginx image, curl, wget, /usr/bin/time, sha256sum.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -n "${WAN:-}" ]; then REPS=${REPS:-3}; else REPS=${REPS:-7}; fi
PORT=${BENCH_PORT:-8099}
TLS_PORT=${BENCH_TLS_PORT:-8499}
image=urlget-testbed-nginx
docker image inspect "$image" >/dev/null 2>&1 || { echo "no $image image (integration/stack.sh up builds it)" >&2; exit 1; }
for t in curl wget /usr/bin/time sha256sum; do
	command -v "$t" >/dev/null || { echo "$t not installed" >&2; exit 1; }
done

work=$(mktemp -d)
out=$(mktemp -d "${BENCH_DIR:-$root/bench}/.out.XXXXXX")
ctr=urlget-bench-nginx-$$
. bench/wan.sh
trap 'wan_down; docker rm -f "$ctr" >/dev/null 2>&1 || true; rm -rf "$work" "$out"' EXIT
bin=${URLGET_BIN:-$work/urlget}
[ -n "${URLGET_BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
go build -o "$work/limit" ./bench/cmd/limit
before=${URLGET_BEFORE:-}

docker run -d --rm --name "$ctr" --network host --entrypoint sh "$image" -c "
set -e
mkdir -p /srv/bench /var/lib/nginx-testbed
head -c 268435456 /dev/urandom > /srv/bench/bench-256M.bin
cat > /etc/nginx/bench.conf <<EOF
worker_processes 1;
pid /run/nginx-bench.pid;
error_log stderr;
events { worker_connections 64; }
http {
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path /var/lib/nginx-testbed/body;
    proxy_temp_path /var/lib/nginx-testbed/proxy;
    fastcgi_temp_path /var/lib/nginx-testbed/fastcgi;
    uwsgi_temp_path /var/lib/nginx-testbed/uwsgi;
    scgi_temp_path /var/lib/nginx-testbed/scgi;
    sendfile on;
    server {
        listen 127.0.0.1:$PORT;
        listen 127.0.0.1:$TLS_PORT ssl;
        ssl_certificate /etc/testbed/tls/server.pem;
        ssl_certificate_key /etc/testbed/tls/server.key;
        root /srv/bench;
    }
}
EOF
exec nginx -g 'daemon off;' -c /etc/nginx/bench.conf" >/dev/null
url="http://127.0.0.1:$PORT/bench-256M.bin"
tls_url="https://127.0.0.1:$TLS_PORT/bench-256M.bin"
for _ in $(seq 150); do
	curl -sfI "$url" >/dev/null 2>&1 && break
	sleep 0.2
done
curl -sfI "$url" >/dev/null || { echo "the bench nginx did not come up:" >&2; docker logs "$ctr" >&2; exit 1; }
docker cp "$ctr:/etc/testbed/tls/ca.pem" "$work/ca.pem" >/dev/null
wan_up "127.0.0.1:$PORT"
url="http://$host:$PORT/bench-256M.bin"
want=$(docker exec "$ctr" sha256sum /srv/bench/bench-256M.bin | cut -d' ' -f1)
if [ -n "${BENCH_NICE:-}" ]; then
	# This shell (so every client and cat after it) and nginx's processes.
	for p in $$ $(docker top "$ctr" -eo pid | tail -n +2); do renice -n "$BENCH_NICE" -p "$p" >/dev/null; done
fi

# argv CLIENT MODE URL: the command line of CLIENT writing URL's body into
# $out/CLIENT.bin (MODE file) or to stdout (MODE pipe); $tls adds the CA.
argv() {
	local c=$1 mode=$2 u=$3 dest=$out/$1.bin
	case $c in
	urlget | before | fsync)
		local b=$bin
		[ "$c" != before ] || b=$before
		cmd=("$b" -s ${tls:+--cacert "$work/ca.pem"})
		[ "$c" != fsync ] || cmd+=(--fsync)
		[ "$mode" = pipe ] || cmd+=(-o "$dest")
		;;
	curl)
		cmd=(curl -sS ${tls:+--cacert "$work/ca.pem"})
		[ "$mode" = pipe ] || cmd+=(-o "$dest")
		;;
	wget)
		cmd=(wget -q ${tls:+--ca-certificate="$work/ca.pem"} -O "$dest")
		[ "$mode" = file ] || cmd[-1]=-
		;;
	esac
	cmd+=("$u")
}

clients=(urlget curl wget)
[ -z "$before" ] || clients+=(before)
now() { date +%s.%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# run MODE URL: REPS rounds, then the outputs checked, then the figures.
run() {
	local mode=$1 u=$2 c t r sum
	local -a these=("${clients[@]}")
	[ "$mode" = pipe ] || these+=(fsync)
	declare -A wall cpu med cmed
	for _ in $(seq "$REPS"); do
		for c in "${these[@]}"; do
			argv "$c" "$mode" "$u"
			rm -f "$out/$c.bin"
			[ "$mode" = pipe ] || sync # no dirty pages left by the run before
			t=$(now)
			if [ "$mode" = pipe ]; then
				/usr/bin/time -f '%U %S' -o "$work/cpu" "${cmd[@]}" | cat >/dev/null
			else
				/usr/bin/time -f '%U %S' -o "$work/cpu" "${cmd[@]}"
			fi
			wall[$c]+="$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') "
			cpu[$c]+="$(awk '{ printf "%.2f", $1 + $2 }' "$work/cpu") "
		done
	done
	for c in "${these[@]}"; do
		if [ "$mode" = file ]; then
			sum=$(sha256sum "$out/$c.bin" | cut -d' ' -f1)
			rm -f "$out/$c.bin"
		else
			argv "$c" pipe "$u"
			sum=$("${cmd[@]}" | sha256sum | cut -d' ' -f1)
		fi
		[ "$sum" = "$want" ] || { echo "$c ($mode): SHA-256 $sum, want $want" >&2; exit 1; }
		med[$c]=$(printf '%s\n' ${wall[$c]} | median)
		cmed[$c]=$(printf '%s\n' ${cpu[$c]} | median)
		printf '%-7s %s median %ss (cpu %ss)\n' "$c:" "${wall[$c]}" "${med[$c]}" "${cmed[$c]}"
	done
	r="ratio urlget/curl: %.2f, urlget/wget: %.2f (cpu: %.2f, %.2f); SHA-256 checked\n"
	awk -v u="${med[urlget]}" -v c="${med[curl]}" -v w="${med[wget]}" -v cu="${cmed[urlget]}" -v cc="${cmed[curl]}" \
		-v cw="${cmed[wget]}" -v r="$r" 'BEGIN { printf r, u / c, u / w, cu / cc, cu / cw }'
	urlget_med=${med[urlget]}
	[ -z "$before" ] || awk -v b="${med[before]}" -v c="${med[curl]}" 'BEGIN { printf "ratio before/curl: %.2f\n", b / c }'
	[ "$mode" = pipe ] || awk -v f="${med[fsync]}" -v c="${med[curl]}" 'BEGIN { printf "ratio fsync/curl: %.2f (urlget --fsync: on disk before the rename)\n", f / c }'
}

tls=
# The loopback target; over a WAN the link sets the pace of every client.
target=" (target: urlget/curl <= 0.9)"
[ -z "${WAN:-}" ] || target=" over the WAN ($WAN_SPEC)"
echo "== http, 256 MiB into a file (-o), $REPS rounds$target"
run file "$url"
file_med=$urlget_med
echo "== http, 256 MiB to a pipe (stdout | cat), $REPS rounds$target"
run pipe "$url"
lim=()
for _ in $(seq "$REPS"); do lim+=("$("$work/limit" "$url" | cut -d' ' -f1)"); done
lm=$(printf '%s\n' "${lim[@]}" | median)
echo "limit:  ${lim[*]} median ${lm}s (GET only, one connection, spliced into /dev/null)"
awk -v l="$lm" -v f="$file_med" -v p="$urlget_med" \
	'BEGIN { printf "urlget at %.2f of the limit into a file, %.2f to a pipe (limit/urlget)\n", l / f, l / p }'
if [ -z "${WAN:-}" ]; then
	tls=1
	echo "== https (information: TLS cannot splice), 256 MiB into a file, $REPS rounds"
	run file "$tls_url"
	echo "== https (information), 256 MiB to a pipe, $REPS rounds"
	run pipe "$tls_url"
	tls=
fi

echo "== peak RSS (/usr/bin/time -v), http, 256 MiB to a pipe"
for c in urlget curl wget; do
	argv "$c" pipe "$url"
	/usr/bin/time -v -o "$work/rss" "${cmd[@]}" | cat >/dev/null
	awk -F': ' -v c="$c" '/Maximum resident/ { printf "%-7s %.1f MiB\n", c ":", $2 / 1024 }' "$work/rss"
done
