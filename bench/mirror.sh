#!/usr/bin/env bash
# bench/mirror.sh — urlget mirror vs lftp mirror vs wget -m (and wget2 when
# installed) on the test bed, in one run:
#   1. FTP from vsftpd (2121): a tree of 2,000 files of 1–8 KiB in 20
#      directories plus four files of 16 MiB; a first run into an empty
#      directory and a no-change run, REPS times each, clients alternating;
#      the FTP commands per file of each client's first run (from vsftpd's
#      protocol log); targets: urlget's first run <= 0.8 x lftp's time,
#      no-change run <= 0.5 x lftp's, <= 2.5 commands a file;
#   2. HTTP from nginx (8080, autoindex): the same tree, urlget vs wget -m
#      -np (and wget2); target <= 0.8 x the faster;
#   3. peak RSS of urlget's first FTP run (/usr/bin/time -v); target
#      <= 64 MiB.
# Beside 1 and 2, the limit: bench/cmd/limit fetching every file of the
# tree on P connections (RETR or GET of each, the bytes spliced into
# /dev/null, no listing, nothing else), in the same rounds; urlget's first
# run is given as a fraction of it (limit's time / urlget's: 1.0 is all
# the server delivers).
# Every first run's tree is compared with the source (cmp -r style, by
# SHA-256 of every file): a client that is fast because it skips or mangles
# files fails the bench.
#
# The tree is written on the host under the fixtures' scratch directory
# (integration/.run/fixtures/scratch/bench-mirror), which every server of
# the stack serves, and removed at the end. Each run writes into a fresh
# directory on the repository's disk (BENCH_DIR to change it), one per
# client and round, and nothing is deleted until the end: on ext4,
# creating files right after deleting thousands makes every create scan
# the inode bitmap for recently deleted inodes (perf showed 60 % of the
# run in ext4's recently_deleted), which measures the bench's rm -rf
# rather than the clients. On an ext4 without a journal (this machine's)
# the scan lasts up to six minutes after any mass deletion, the bench's
# own clean-up of the run before included: BENCH_DIR=/dev/shm measures the
# clients alone.
# WAN=40ms,20MiB/s (see bench/wan.sh): every client reaches vsftpd (control
# and passive ports) and nginx through toxiproxy on 127.0.0.2, a round trip
# of 40 ms and 20 MiB/s per connection; lftp with ftp:ignore-pasv-address.
# wget's FTP connects to PASV's 127.0.0.1 and would bypass the WAN on its
# data connections, so over a WAN wget is timed on HTTP only, and lftp
# mirrors the HTTP tree too (-P as urlget). The targets are then issue
# 26's: FTP first run <= 0.7 x lftp, no-change run <= 0.5 x lftp; HTTP
# <= 0.5 x wget -m (sequential), <= 1.0 x lftp. REPS defaults to 3 and
# ONLY to "1 2" (the RSS is the loopback's).
# Environment: REPS (default 5); BIN, a urlget binary to measure instead
# of one built from this tree; P, the parallel transfers of every client
# (default 8); ONLY, the sections to run ("1", "1 3"; default all).
# Needs: the stack up (integration/stack.sh up); lftp, wget and /usr/bin/time are installed from Debian when missing (bench/lib.sh),
# sha256sum.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -n "${WAN:-}" ]; then
	REPS=${REPS:-3} ONLY=${ONLY:-1 2}
else
	REPS=${REPS:-5} ONLY=${ONLY:-1 2 3}
fi
P=${P:-8}
section() { [[ " $ONLY " == *" $1 "* ]]; }
trap 'echo "bench/mirror.sh: line $LINENO: a command failed" >&2' ERR
. bench/lib.sh
need lftp:lftp wget:wget time:/usr/bin/time
wget2=$(command -v wget2 || true)
log=integration/.run/logs/vsftpd/vsftpd.log
[ -f "$log" ] || { echo "no vsftpd log: is the stack up (integration/stack.sh up)?" >&2; exit 1; }

fixtures=integration/.run/fixtures
src=$fixtures/scratch/bench-mirror
work=$(mktemp -d)
out=$(mktemp -d "${BENCH_DIR:-$root/bench}/.mirror.XXXXXX")
. bench/wan.sh
trap 'wan_down; rm -rf "$work" "$out" "$src"' EXIT
bin=${BIN:-$work/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget
go build -o "$work/limit" ./bench/cmd/limit

# The tree: 20 directories of 100 files each, sizes 1–8 KiB, and four
# 16 MiB files at the top; random bytes, fixed times.
mirror_tree "$src"

wan_up
ftp_url="ftp://$host:2121/scratch/bench-mirror/"
http_url="http://$host:8080/scratch/bench-mirror/"
# Every file's URL, for the limit.
(cd "$src" && find . -type f | sort | sed "s|^\./|${ftp_url}|") >"$work/ftp.urls"
sed "s|^${ftp_url}|${http_url}|" "$work/ftp.urls" >"$work/http.urls"

# check DIR: the tree under DIR (the mirror's lock file and wget's FTP
# .listing files left out) must be the source's, file for file.
check() {
	local got
	got=$(cd "$1" && find . -type f ! -name .urlget-mirror.lock ! -name .listing -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "$2: the mirrored tree differs from the source" >&2; exit 1; }
}

# argv CLIENT PROTO DEST: the command line of CLIENT mirroring PROTO's URL
# into DEST (wget's -nH --cut-dirs put the tree itself there).
argv() {
	local c=$1 proto=$2 dest=$3 u
	[ "$proto" = ftp ] && u=$ftp_url || u=$http_url
	case $c in
	urlget) cmd=("$bin" mirror -s -P "$P" --no-index-pages "$u" "$dest") ;; # as wget -R index.html*
	lftp) cmd=(lftp -c "set cmd:fail-exit yes${WAN:+; set ftp:ignore-pasv-address yes}; open ${u%scratch/bench-mirror/}; mirror -P $P /scratch/bench-mirror $dest") ;;
	wget) cmd=(wget -q -m -np -nH --cut-dirs=2 -R 'index.html*' -P "$dest" "$u") ;;
	wget2) cmd=("$wget2" -q -m -np -nH --cut-dirs=2 -R 'index.html*' --max-threads="$P" -P "$dest" "$u") ;;
	esac
}

# bench PROTO CLIENT...: REPS rounds of a first run and a no-change run of
# each client, alternating; medians, ratios to the second client.
bench() {
	local proto=$1 c t i
	shift
	local -a clients=("$@")
	declare -A first again cmds
	local lim=
	for i in $(seq "$REPS"); do
		# limit prints seconds, bytes and files: all of the tree, or no figure.
		read -r lt lb ln < <("$work/limit" -n "$P" -i "$work/$proto.urls")
		[ "$lb" = "$bytes" ] && [ "$ln" = "$files" ] || { echo "limit ($proto): $lb bytes in $ln files, want $bytes in $files" >&2; exit 1; }
		lim+="$lt "
		for c in "${clients[@]}"; do
			local dest=$out/$proto-$c-$i
			sync
			argv "$c" "$proto" "$dest"
			local off
			off=$(stat -c %s "$log")
			t=$(now)
			"${cmd[@]}" >/dev/null 2>&1 || { echo "$c ($proto): first run failed: ${cmd[*]}" >&2; exit 1; }
			first[$c]+="$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') "
			if [ "$i" = 1 ]; then
				check "$dest" "$c ($proto)"
				if [ "$proto" = ftp ]; then
					sleep 0.5 # vsftpd writes its log on its own time
					cmds[$c]=$(tail -c +"$((off + 1))" "$log" | grep -c 'FTP command:' || true)
				fi
			fi
			t=$(now)
			"${cmd[@]}" >/dev/null 2>&1 || { echo "$c ($proto): no-change run failed" >&2; exit 1; }
			again[$c]+="$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') "
		done
	done
	declare -A fm am
	for c in "${clients[@]}"; do
		fm[$c]=$(printf '%s\n' ${first[$c]} | median)
		am[$c]=$(printf '%s\n' ${again[$c]} | median)
		printf '%-7s first: %s median %ss; no change: %s median %ss' "$c:" "${first[$c]}" "${fm[$c]}" "${again[$c]}" "${am[$c]}"
		[ -z "${cmds[$c]:-}" ] || awk -v n="${cmds[$c]}" -v f="$files" 'BEGIN { printf "; %.2f FTP commands a file", n / f }'
		echo
	done
	local lm
	lm=$(printf '%s\n' $lim | median)
	printf '%-7s %s median %ss (every file by RETR or GET on %d connections, nothing else)\n' "limit:" "$lim" "$lm" "$P"
	awk -v u="${fm[urlget]}" -v l="$lm" 'BEGIN { printf "urlget first run at %.2f of the limit (limit/urlget)\n", l / u }'
	for c in "${clients[@]:1}"; do
		awk -v u="${fm[urlget]}" -v r="${fm[$c]}" -v ua="${am[urlget]}" -v ra="${am[$c]}" -v ref="$c" \
			'BEGIN { printf "ratio urlget/%s: first run %.2f, no-change run %.2f\n", ref, u / r, ua / ra }'
	done
}

echo "tree: $files files ($(du -sh "$src" | cut -f1)), -P $P, $REPS rounds"
if section 1; then
	if [ -n "${WAN:-}" ]; then
		echo "== FTP (vsftpd) — targets: first run <= 0.7 x lftp, no-change run <= 0.5 x lftp (wget left out: its data connections bypass the WAN)"
		bench ftp urlget lftp
	else
		echo "== FTP (vsftpd) — targets: first run <= 0.8 x lftp, no-change run <= 0.5 x lftp, <= 2.5 commands a file"
		bench ftp urlget lftp wget
	fi
fi
if section 2; then
	if [ -n "${WAN:-}" ]; then
		echo "== HTTP (nginx autoindex) — targets: <= 0.5 x wget -m (sequential), <= 1.0 x lftp mirror -P $P"
		bench http urlget wget lftp ${wget2:+wget2}
	else
		echo "== HTTP (nginx autoindex) — target: <= 0.8 x the faster wget"
		bench http urlget wget ${wget2:+wget2}
	fi
fi
if section 3; then
	echo "== peak RSS, first FTP run (target <= 64 MiB)"
	for c in urlget lftp; do
		argv "$c" ftp "$out/rss-$c"
		/usr/bin/time -v -o "$work/rss" "${cmd[@]}" >/dev/null 2>&1
		awk -F': ' -v c="$c" '/Maximum resident/ { printf "%-7s %.1f MiB\n", c ":", $2 / 1024 }' "$work/rss"
	done
fi
