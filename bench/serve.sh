#!/usr/bin/env bash
# bench/serve.sh — the `urlget serve` gateway on the test bed:
#   1. one 256 MiB file from vsftpd (2121) read through the gateway by
#      urlget -o (an http:// URL: a client as fast as urlget) against a
#      direct `urlget -o` of the same URL: wall time (median of REPS),
#      ratio gateway/direct (target <= 1.1); curl through the gateway and
#      curl direct beside them, and a plain socket reader through the
#      gateway (bench/cmd/rawget: one GET, read(2)s of 64 KiB, no HTTP
#      library) into the file and into /dev/null, curl into /dev/null too,
#      each against the direct urlget -o: the issue-36 target is <= 1.1 for
#      any client that reads its socket promptly. Into /dev/null a client
#      reads as promptly as it can; into a file it pays its own copy from
#      its buffer to the page cache, which urlget's splice(2) does not;
#   2. CLIENTS concurrent clients (default 100), REQUESTS requests in all
#      (default 2000), on a gopher menu page (gophernicus's root) and on
#      an FTP file (README.txt): p50 and p99 latency, from curl's
#      time_total, and failures;
#   3. the gateway's peak RSS over the run (VmHWM).
# The 256 MiB file is created inside the vsftpd container under /tmp, as
# bench/ftp.sh does, and fetched as alice with an absolute (%2F) path.
# Environment: REPS (default 9), CLIENTS, REQUESTS; BIN, a urlget binary
# to measure instead of one built from this tree.
# Needs: the stack up (integration/stack.sh up), curl.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
REPS=${REPS:-9}
CLIENTS=${CLIENTS:-100}
REQUESTS=${REQUESTS:-2000}
trap 'echo "bench/serve.sh: line $LINENO: a command failed" >&2' ERR
ctr=$(docker ps --filter label=com.docker.compose.service=vsftpd --format '{{.Names}}' | head -n1)
[ -n "$ctr" ] || { echo "vsftpd container not running (integration/stack.sh up)" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl not installed" >&2; exit 1; }

tmp=$(mktemp -d)
out=$(mktemp -d "$root/bench/.out.XXXXXX")
gw_pid=
cleanup() {
	[ -z "$gw_pid" ] || kill "$gw_pid" 2>/dev/null || true
	rm -rf "$tmp" "$out"
}
trap cleanup EXIT
bin=${BIN:-$tmp/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
go build -o "$tmp/rawget" ./bench/cmd/rawget

docker exec "$ctr" sh -c '
  [ -s /tmp/bench-256M.bin ] || head -c 268435456 /dev/urandom > /tmp/bench-256M.bin
  chmod a+r /tmp/bench-256M.bin'

"$bin" serve --listen 127.0.0.1:0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
gw_pid=$!
for _ in $(seq 50); do [ -s "$tmp/serve.out" ] && break; sleep 0.1; done
gw=$(sed -n 's|^serving on \(http://[^/]*\)/$|\1|p' "$tmp/serve.out")
[ -n "$gw" ] || { echo "the gateway did not start: $(cat "$tmp/serve.err")" >&2; exit 1; }
echo "gateway: $gw"

big="ftp://alice:secret@127.0.0.1:2121/%2Ftmp/bench-256M.bin"
# The gateway answers a URL with a password by a 303 to its address
# without it, and keeps the password: ask once, then read the address
# the browser would be sent to.
curl -sS -o /dev/null "$gw/ftp/alice:secret@127.0.0.1:2121/%2Ftmp/bench-256M.bin"
gwbig="$gw/ftp/alice@127.0.0.1:2121/%2Ftmp/bench-256M.bin"

now() { date +%s.%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
timeit() { local t=$(now); "$@" >/dev/null; awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.4f\n", b - a }'; }

echo "== 256 MiB file into a file, $REPS repetitions (alternating)"
# The client through the gateway is urlget itself (an http:// URL), so
# that it reads as fast as urlget reads; curl through the gateway and
# curl direct are shown beside it, for the cost of the client alone.
d=(); g=(); cg=(); cd=(); rg=(); rn=(); cn=()
for _ in $(seq "$REPS"); do
	sync
	d+=("$(timeit "$bin" -s -o "$out/direct.bin" "$big")")
	sync
	g+=("$(timeit "$bin" -s -f -o "$out/gateway.bin" "$gwbig")")
	sync
	cg+=("$(timeit curl -sS --fail -o "$out/curlgw.bin" "$gwbig")")
	sync
	cd+=("$(timeit curl -sS --fail -o "$out/curl.bin" "$big")")
	sync
	rg+=("$(timeit "$tmp/rawget" "$gwbig" "$out/rawgw.bin")")
	rn+=("$(timeit "$tmp/rawget" "$gwbig" /dev/null)")
	cn+=("$(timeit curl -sS --fail -o /dev/null "$gwbig")")
done
for f in gateway curlgw curl rawgw; do
	cmp -s "$out/direct.bin" "$out/$f.bin" || { echo "$f.bin differs from urlget's direct copy" >&2; exit 1; }
done
rm -f "$out"/*.bin
dm=$(printf '%s\n' "${d[@]}" | median); gm=$(printf '%s\n' "${g[@]}" | median)
cgm=$(printf '%s\n' "${cg[@]}" | median); cdm=$(printf '%s\n' "${cd[@]}" | median)
rgm=$(printf '%s\n' "${rg[@]}" | median); rnm=$(printf '%s\n' "${rn[@]}" | median)
cnm=$(printf '%s\n' "${cn[@]}" | median)
echo "direct urlget -o:             ${d[*]}  median ${dm}s"
echo "urlget -o through gateway:    ${g[*]}  median ${gm}s"
echo "curl -o through gateway:      ${cg[*]}  median ${cgm}s"
echo "curl -o direct:               ${cd[*]}  median ${cdm}s"
echo "plain reader through gateway: ${rg[*]}  median ${rgm}s"
echo "the same into /dev/null:      ${rn[*]}  median ${rnm}s"
echo "curl through gateway, null:   ${cn[*]}  median ${cnm}s"
awk -v a="$gm" -v b="$dm" 'BEGIN { printf "ratio gateway/direct (urlget both): %.2f (target <= 1.1)\n", a / b }'
awk -v a="$cgm" -v b="$cdm" 'BEGIN { printf "ratio gateway/direct (curl both):   %.2f\n", a / b }'
awk -v a="$cgm" -v b="$dm" 'BEGIN { printf "ratio curl through gateway / direct urlget: %.2f (target <= 1.1)\n", a / b }'
awk -v a="$rgm" -v b="$dm" 'BEGIN { printf "ratio plain reader through gateway / direct urlget: %.2f (target <= 1.1)\n", a / b }'
awk -v a="$rnm" -v b="$dm" 'BEGIN { printf "ratio plain reader into /dev/null / direct urlget: %.2f (target <= 1.1)\n", a / b }'
awk -v a="$cnm" -v b="$dm" 'BEGIN { printf "ratio curl into /dev/null / direct urlget: %.2f (target <= 1.1)\n", a / b }'

# load URL: REQUESTS requests, CLIENTS at a time; p50, p99, failures.
load() {
	seq "$REQUESTS" | xargs -P "$CLIENTS" -I{} curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "$1" >"$tmp/load" || true
	local fails
	fails=$(awk '$1 != 200' "$tmp/load" | wc -l)
	awk '$1 == 200 { print $2 }' "$tmp/load" | sort -n | awk -v f="$fails" '
		{ a[NR] = $1 }
		END { printf "p50 %.1f ms, p99 %.1f ms, %d ok, %d failed\n", a[int(NR * 0.5 + 0.5)] * 1000, a[int(NR * 0.99 + 0.5)] * 1000, NR, f }'
}
echo "== $CLIENTS concurrent clients, $REQUESTS requests: gopher menu page (gophernicus)"
load "$gw/gopher/127.0.0.1:7070/1/"
echo "== $CLIENTS concurrent clients, $REQUESTS requests: FTP file (vsftpd README.txt)"
load "$gw/ftp/127.0.0.1:2121/README.txt"

echo "== the gateway's peak RSS: $(awk '/VmHWM/ { print $2, $3 }' "/proc/$gw_pid/status")"
