#!/usr/bin/env bash
# bench/ftp.sh — urlget vs curl against vsftpd in the test bed (2121):
#   1. one 256 MiB file to stdout (/dev/null) and into a file (-o): wall
#      time (median of REPS), ratio urlget/curl;
#   2. 2,000 files of 4 KiB named on one command line: wall time, ratio, and
#      the FTP commands per file each client sent (from vsftpd's protocol log);
#   3. peak RSS of the 256 MiB download (and of a 64 MiB one, to show it is
#      flat in file size), from /usr/bin/time -v.
# The files are created inside the vsftpd container under /tmp (not part of
# the fixture tree) and fetched as alice with absolute (%2F) paths.
# Needs: the stack up (integration/stack.sh up), curl, /usr/bin/time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
REPS=${REPS:-5}
ctr=$(docker ps --filter name=vsftpd --format '{{.Names}}' | head -n1)
[ -n "$ctr" ] || { echo "vsftpd container not running (integration/stack.sh up)" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl not installed" >&2; exit 1; }
log=integration/.run/logs/vsftpd/vsftpd.log

bin=$(mktemp -d)/urlget
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/urlget

docker exec "$ctr" sh -c '
  [ -s /tmp/bench-256M.bin ] || head -c 268435456 /dev/urandom > /tmp/bench-256M.bin
  [ -s /tmp/bench-64M.bin ] || head -c 67108864 /dev/urandom > /tmp/bench-64M.bin
  if [ ! -d /tmp/bench-many ] || [ "$(ls /tmp/bench-many | wc -l)" -ne 2000 ]; then
    mkdir -p /tmp/bench-many && cd /tmp/bench-many
    for i in $(seq -w 1 2000); do head -c 4096 /dev/urandom > f$i.bin; done
  fi
  chmod -R a+rX /tmp/bench-256M.bin /tmp/bench-64M.bin /tmp/bench-many'

base="ftp://alice:secret@127.0.0.1:2121/%2Ftmp"
big="$base/bench-256M.bin"
many=()
for i in $(seq -w 1 2000); do many+=("$base/bench-many/f$i.bin"); done

now() { date +%s.%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
timeit() { local t=$(now); "$@" >/dev/null; awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.4f\n", b - a }'; }

echo "== 256 MiB file to stdout (/dev/null), $REPS repetitions (alternating)"
u=(); c=()
for _ in $(seq "$REPS"); do
	u+=("$(timeit "$bin" -s "$big")")
	c+=("$(timeit curl -sS "$big")")
done
um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
echo "urlget: ${u[*]}  median ${um}s"
echo "curl:   ${c[*]}  median ${cm}s"
awk -v a="$um" -v b="$cm" 'BEGIN { printf "ratio urlget/curl: %.2f (target <= 0.9)\n", a / b }'

# urlget fsyncs the file before renaming it into place (nothing half-written
# on failure); curl does not, so this one also measures that durability.
echo "== 256 MiB file into a file (-o) on the local disk, $REPS repetitions (alternating)"
out=$(mktemp -d "$root/bench/.out.XXXXXX")
trap 'rm -rf "$(dirname "$bin")" "$out"' EXIT
u=(); c=()
for _ in $(seq "$REPS"); do
	sync # start each run with no dirty pages left by the one before
	u+=("$(timeit "$bin" -s -o "$out/u.bin" "$big")")
	sync
	c+=("$(timeit curl -sS -o "$out/c.bin" "$big")")
done
cmp -s "$out/u.bin" "$out/c.bin" || { echo "urlget's and curl's files differ" >&2; exit 1; }
rm -f "$out/u.bin" "$out/c.bin"
um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
echo "urlget: ${u[*]}  median ${um}s"
echo "curl:   ${c[*]}  median ${cm}s"
awk -v a="$um" -v b="$cm" 'BEGIN { printf "ratio urlget/curl: %.2f (target <= 0.9)\n", a / b }'

echo "== 2,000 x 4 KiB files on one command line, $REPS repetitions"
count_cmds() { # count_cmds OFFSET: FTP commands logged since OFFSET
	tail -c +"$(($1 + 1))" "$log" | grep -c 'FTP command:' || true
}
u=(); c=(); ucmd=0; ccmd=0
for _ in $(seq "$REPS"); do
	off=$(stat -c %s "$log")
	u+=("$(timeit "$bin" -s "${many[@]}")")
	sleep 0.5; ucmd=$(count_cmds "$off")
	off=$(stat -c %s "$log")
	c+=("$(timeit curl -sS "$base/bench-many/f[0001-2000].bin")")
	sleep 0.5; ccmd=$(count_cmds "$off")
done
um=$(printf '%s\n' "${u[@]}" | median); cm=$(printf '%s\n' "${c[@]}" | median)
echo "urlget: ${u[*]}  median ${um}s"
echo "curl:   ${c[*]}  median ${cm}s"
awk -v a="$um" -v b="$cm" 'BEGIN { printf "ratio urlget/curl: %.2f\n", a / b }'
awk -v a="$ucmd" -v b="$ccmd" 'BEGIN { printf "commands per file: urlget %.2f, curl %.2f\n", a / 2000, b / 2000 }'

echo "== peak RSS (/usr/bin/time -v)"
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { printf "%.1f MiB\n", $2 / 1024 }'; }
echo "urlget 256 MiB: $(rss "$bin" -s "$big")"
echo "urlget  64 MiB: $(rss "$bin" -s "$base/bench-64M.bin")"
echo "curl   256 MiB: $(rss curl -sS "$big")"
