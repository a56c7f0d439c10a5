#!/usr/bin/env bash
# bench/scale.sh — a mirror at archive scale: urlget mirror (and lftp
# mirror, for reference) of 10,000 files in 100 directories and of 100,000
# files in 1,000 directories (100 files of 0–1 KiB each, so the bench
# measures what a file costs, not bandwidth), over FTP from a vsftpd of the
# bench's own, in one run:
#   for each tree, a first run into an empty directory and a no-change run,
#   each client in turn, REPS rounds (trees alternating): wall time, time
#   per file, peak RSS (/usr/bin/time); then the ratio of the time per
#   file, 100,000 files / 10,000 files, of the medians and of the best
#   runs (on a machine busy with other work, the least disturbed).
# Targets (issue 26): urlget's peak RSS <= 128 MiB, and its time per file
# flat: the ratio <= 1.2.
# Every first run's tree is checked against the source: the number of
# files and a SHA-256 of every file's path and SHA-256 (the mirror's lock
# file left out).
#
# The trees are not part of the fixtures (every test and the stack's start
# would pay for 110,000 files): they are generated under TREE_DIR (default
# /dev/shm, so no disk and no ext4 clean-up after a mass deletion weighs on
# the figures) and served by a vsftpd started from the test bed's image
# (urlget-testbed-vsftpd, built by integration/stack.sh up) with the tree
# bind-mounted, on 127.0.0.1:PORT (2191) with passive ports 32100–32199,
# without logs; the container and the trees are removed at the end. Each
# run's copy is removed once checked.
# Environment: REPS (default 1); P, the parallel transfers of both clients (default 8);
# SIZES (default "10000 100000"; multiples of 100); BIN, a urlget binary
# to measure instead of one built from this tree; PEERS ("lftp", or "" to
# time urlget alone); PORT; TREE_DIR.
# Needs: docker and the vsftpd image, python3, lftp, /usr/bin/time,
# sha256sum.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
P=${P:-8}
REPS=${REPS:-1}
SIZES=${SIZES:-10000 100000}
PEERS=${PEERS-lftp}
PORT=${PORT:-2191}
image=urlget-testbed-vsftpd
trap 'echo "bench/scale.sh: line $LINENO: a command failed" >&2' ERR
docker image inspect "$image" >/dev/null 2>&1 || { echo "no $image image (integration/stack.sh up builds it)" >&2; exit 1; }
. bench/lib.sh
need python3:python3 time:/usr/bin/time
[ -z "$PEERS" ] || need lftp:lftp

work=$(mktemp -d)
trees=$(mktemp -d "${TREE_DIR:-/dev/shm}/urlget-scale.XXXXXX")
ctr=urlget-bench-scale-$$
trap 'docker rm -f "$ctr" >/dev/null 2>&1 || true; rm -rf "$work" "$trees"' EXIT
bin=${BIN:-$work/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget

# gen DIR N: N files in N/100 directories d0000…, 100 files each of 0 to
# 1,024 bytes (random sizes and bytes, a fixed seed), one fixed time.
gen() {
	python3 - "$1" "$2" <<'EOF'
import os, random, sys
top, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(26)
t = 1704164645  # 2024-01-02 03:04:05 UTC
for d in range(n // 100):
    dd = os.path.join(top, "d%04d" % d)
    os.makedirs(dd)
    for f in range(100):
        p = os.path.join(dd, "f%03d.bin" % f)
        with open(p, "wb") as fh:
            fh.write(rnd.randbytes(rnd.randint(0, 1024)))
        os.utime(p, (t, t))
    os.utime(dd, (t, t))
os.utime(top, (t, t))
EOF
	chmod -R a+rX "$1"
}
# digest DIR: "COUNT files SHA-256" of the files under DIR, the SHA-256
# taken over every file's path and SHA-256.
digest() {
	(cd "$1" && find . -type f ! -name .urlget-mirror.lock -print0 | sort -z | xargs -0 sha256sum) >"$work/sums"
	echo "$(wc -l <"$work/sums") files $(sha256sum <"$work/sums" | cut -d' ' -f1)"
}

for n in $SIZES; do
	gen "$trees/src/t$n" "$n"
done

docker run -d --rm --name "$ctr" --network host --init -v "$trees/src:/srv/scale:ro" --entrypoint sh "$image" -c "
cat > /etc/vsftpd/scale.conf <<EOF
listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=$PORT
background=NO
anonymous_enable=YES
anon_root=/srv/scale
no_anon_password=YES
write_enable=NO
local_enable=NO
secure_chroot_dir=/var/lib/vsftpd-empty
pasv_enable=YES
pasv_address=127.0.0.1
pasv_min_port=32100
pasv_max_port=32199
connect_from_port_20=NO
seccomp_sandbox=NO
max_clients=200
max_per_ip=200
xferlog_enable=NO
log_ftp_protocol=NO
EOF
exec vsftpd /etc/vsftpd/scale.conf" >/dev/null
for _ in $(seq 100); do
	curl -s --max-time 2 "ftp://127.0.0.1:$PORT/" >/dev/null 2>&1 && break
	sleep 0.1
done
curl -s --max-time 5 "ftp://127.0.0.1:$PORT/" >/dev/null || { echo "the bench vsftpd did not come up:" >&2; docker logs "$ctr" >&2; exit 1; }

# argv CLIENT N DEST: the command line of CLIENT mirroring the tree of N
# files into DEST.
argv() {
	case $1 in
	urlget) cmd=("$bin" mirror -s -P "$P" "ftp://127.0.0.1:$PORT/t$2/" "$3") ;;
	lftp) cmd=(lftp -c "set cmd:fail-exit yes; open ftp://127.0.0.1:$PORT; mirror -P $P /t$2 $3") ;;
	esac
}
# run CLIENT N KIND DEST: one timed run; its row, and "seconds rss_kib
# cpu_seconds" in $work/res-CLIENT-N-KIND. The CPU time (user + system) of
# the client is beside the wall time: on a machine busy with other work it
# is the steadier of the two.
run() {
	local c=$1 n=$2 kind=$3 dest=$4
	argv "$c" "$n" "$dest"
	/usr/bin/time -f '%e %M %U %S' -o "$work/time" "${cmd[@]}" >/dev/null 2>"$work/stderr" ||
		{ echo "$c ($n files, $kind): failed: ${cmd[*]}" >&2; cat "$work/stderr" >&2; exit 1; }
	read -r secs rss user sys <"$work/time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
	echo "$secs $rss $cpu" >>"$work/res-$c-$n-$kind"
	awk -v c="$c" -v n="$n" -v k="$kind" -v s="$secs" -v r="$rss" -v cpu="$cpu" 'BEGIN {
		printf "%-7s %7d files  %-9s %8.2f s %7.1f µs/file  cpu %7.1f µs/file  peak RSS %6.1f MiB\n", c, n, k, s, s / n * 1e6, cpu / n * 1e6, r / 1024
	}'
}

clients=(urlget $PEERS)
echo "== mirror over FTP (vsftpd on 127.0.0.1:$PORT), -P $P, $REPS rounds; trees under $trees"
declare -A want
for n in $SIZES; do want[$n]=$(digest "$trees/src/t$n"); done
for _ in $(seq "$REPS"); do
for n in $SIZES; do
	for c in "${clients[@]}"; do
		dest=$trees/dst-$c-$n
		sync
		run "$c" "$n" first "$dest"
		got=$(digest "$dest")
		[ "$got" = "${want[$n]}" ] || { echo "$c ($n files): the mirrored tree differs from the source ($got, want ${want[$n]})" >&2; exit 1; }
		run "$c" "$n" no-change "$dest"
		rm -rf "$dest"
	done
done
done
echo "   (every first run's tree checked: the number of files and a SHA-256 of every path and file)"

# col NAME FIELD HOW: the median, the least (best) or the largest (most)
# of a column of $work/res-NAME.
col() {
	awk -v f="$2" '{ print $f }' "$work/res-$1" | sort -n | awk -v how="$3" '{ a[NR] = $1 } END {
		if (how == "best") print a[1]; else if (how == "most") print a[NR]
		else print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
	}'
}
set -- $SIZES
if [ $# -ge 2 ]; then
	small=$1 large=${!#}
	echo "== time per file, $large files / $small files, of the medians (best runs), and the largest peak RSS"
	echo "   targets for urlget: per file <= 1.2, peak RSS <= 128 MiB"
	for c in "${clients[@]}"; do
		for kind in first no-change; do
			s1=$(col "$c-$small-$kind" 1 median) s2=$(col "$c-$large-$kind" 1 median)
			b1=$(col "$c-$small-$kind" 1 best) b2=$(col "$c-$large-$kind" 1 best)
			c1=$(col "$c-$small-$kind" 3 median) c2=$(col "$c-$large-$kind" 3 median)
			r1=$(col "$c-$small-$kind" 2 most) r2=$(col "$c-$large-$kind" 2 most)
			awk -v c="$c" -v k="$kind" -v a="$s1" -v b="$s2" -v ba="$b1" -v bb="$b2" -v n1="$small" -v n2="$large" \
				-v r1="$r1" -v r2="$r2" -v c1="$c1" -v c2="$c2" 'BEGIN {
				ratio = (b / n2) / (a / n1); best = (bb / n2) / (ba / n1)
				printf "%-7s %-9s per file: wall %.2f (best %.2f), cpu %.2f;  peak RSS %.1f -> %.1f MiB", c, k, ratio, best,
					(c2 / n2) / (c1 / n1), r1 / 1024, r2 / 1024
				if (c == "urlget") printf "  (%s, %s)", ratio <= 1.2 ? "flat: met" : "flat: MISSED", r2 <= 128 * 1024 ? "RSS: met" : "RSS: MISSED"
				printf "\n"
			}'
		done
	done
	for kind in first no-change; do
		[ -f "$work/res-lftp-$large-$kind" ] || continue
		awk -v k="$kind" -v u="$(col "urlget-$large-$kind" 1 median)" -v l="$(col "lftp-$large-$kind" 1 median)" -v n="$large" \
			'BEGIN { printf "ratio urlget/lftp, %d files, %s: %.2f\n", n, k, u / l }'
	done
fi
