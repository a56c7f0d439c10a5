#!/usr/bin/env bash
# bench/sftp.sh — sftp against curl, lftp and rclone on the test bed's
# OpenSSH (issue 34), in one run, the clients alternating in each of REPS
# rounds; medians and ratios:
#   1. one 256 MiB file: urlget over one connection and with --segments 4,
#      curl sftp:// (libssh2, one connection), lftp pget -n 4 and rclone
#      copy (its defaults: four streams for a file this large);
#   2. a tree of 2,000 files of 1–8 KiB in 20 directories: urlget mirror
#      -P P, lftp mirror -P P and rclone copy --transfers P --checkers P,
#      a first run into an empty directory and a no-change run.
# Target (issue 34): urlget <= 0.9 x the best of the others in each row.
# Every first run's output is checked by SHA-256 against the source: a
# client that is fast because it skips or mangles files fails the bench.
#
# The files are written on the host under the fixtures' scratch directory
# (integration/.run/fixtures/scratch), which the sftp service serves at
# /srv/fixtures/scratch, and removed at the end. Every client logs in as
# alice with her password and checks the server's host key (a known hosts
# file of the bench's own; curl by the key's SHA-256).
#
# WAN=40ms,20MiB/s (see bench/wan.sh) puts sshd behind toxiproxy on
# WAN_ADDR (default 127.0.0.2): a round trip of 40 ms and 20 MiB/s per
# connection. On loopback, SSH's ciphers on two cores set the pace.
#
# Environment: REPS (default 5; 3 over a WAN), ONLY ("1", "2"; default
# both), P (parallel transfers of the mirrors, default 8), BIN (a urlget
# binary instead of one built from this tree), BENCH_DIR (where the runs
# write; default bench/). lftp and rclone are installed from Debian when
# missing (apt-get, as root).
# Needs: the stack up (integration/stack.sh up), curl with sftp, ssh,
# ssh-keygen, sha256sum.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -n "${WAN:-}" ]; then REPS=${REPS:-3}; else REPS=${REPS:-5}; fi
ONLY=${ONLY:-1 2}
P=${P:-8}
section() { [[ " $ONLY " == *" $1 "* ]]; }
trap 'echo "bench/sftp.sh: line $LINENO: a command failed" >&2' ERR
. bench/lib.sh
need lftp:lftp rclone:rclone curl:curl openssh-client:ssh
curl -V | grep -qw sftp || { echo "this curl has no sftp" >&2; exit 1; }
run=integration/.run
[ -s "$run/ssh/ssh_host_ed25519_key.pub" ] || { echo "no sftp host key: is the stack up (integration/stack.sh up)?" >&2; exit 1; }
user=alice pass=secret port=2222

scratch=$run/fixtures/scratch
src=$scratch/bench-sftp
big=$scratch/bench-sftp-256M.bin
work=$(mktemp -d)
out=$(mktemp -d "${BENCH_DIR:-$root/bench}/.sftp.XXXXXX")
. bench/wan.sh
trap 'wan_down; rm -rf "$work" "$out" "$src" "$big"' EXIT
bin=${BIN:-$work/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget

# The files: the tree of bench/mirror.sh without its large files, and one
# 256 MiB file beside it; random bytes, fixed times.
small_tree "$src"
[ -s "$big" ] || head -c 268435456 /dev/urandom >"$big"
find "$src" "$big" -exec touch -d '2024-01-02 03:04:05 UTC' {} +
chmod -R a+rX "$src" "$big"
files=$(find "$src" -type f | wc -l)
want=$(cd "$src" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
big_sum=$(sha256sum "$big" | cut -d' ' -f1)

wan_up "127.0.0.1:$port"
# One known hosts file for urlget, lftp's ssh and rclone; curl checks the
# key by its SHA-256.
kh=$work/known_hosts
echo "[$host]:$port $(cut -d' ' -f1-2 "$run/ssh/ssh_host_ed25519_key.pub")" >"$kh"
key_sha=$(ssh-keygen -l -E sha256 -f "$run/ssh/ssh_host_ed25519_key.pub" | awk '{ sub(/^SHA256:/, "", $2); print $2 }')
rclone_pass=$(rclone obscure "$pass")
export HOME=$work/home # no agent, no keys, no configuration of the user's
mkdir -p "$HOME"
unset SSH_AUTH_SOCK
base=sftp://$user:$pass@$host:$port/srv/fixtures/scratch
lftp_open="set cmd:fail-exit yes; set sftp:connect-program 'ssh -a -x -o UserKnownHostsFile=$kh -o StrictHostKeyChecking=yes -o BatchMode=no'; set net:max-retries 1; open -u $user,$pass sftp://$host:$port"
rclone_remote=(--sftp-host "$host" --sftp-port "$port" --sftp-user "$user" --sftp-pass "$rclone_pass" --sftp-known-hosts-file "$kh")

# argv CLIENT SECTION DEST: the command line of CLIENT for SECTION into
# DEST (a file for 1, a directory for 2).
argv() {
	local c=$1 s=$2 dest=$3
	case $s/$c in
	1/urlget) cmd=("$bin" -s --known-hosts "$kh" -o "$dest" "$base/bench-sftp-256M.bin") ;;
	1/urlget-seg4) cmd=("$bin" -s --known-hosts "$kh" --segments 4 -o "$dest" "$base/bench-sftp-256M.bin") ;;
	1/curl) cmd=(curl -sS --hostpubsha256 "$key_sha" -o "$dest" "$base/bench-sftp-256M.bin") ;;
	1/lftp) cmd=(lftp -c "$lftp_open; pget -n 4 /srv/fixtures/scratch/bench-sftp-256M.bin -o $dest") ;;
	1/rclone) cmd=(rclone copyto -q "${rclone_remote[@]}" :sftp:/srv/fixtures/scratch/bench-sftp-256M.bin "$dest") ;;
	2/urlget) cmd=("$bin" mirror -s --known-hosts "$kh" -P "$P" "$base/bench-sftp/" "$dest") ;;
	2/lftp) cmd=(lftp -c "$lftp_open; mirror -P $P /srv/fixtures/scratch/bench-sftp $dest") ;;
	2/rclone) cmd=(rclone copy -q "${rclone_remote[@]}" --transfers "$P" --checkers "$P" :sftp:/srv/fixtures/scratch/bench-sftp "$dest") ;;
	esac
}

# check SECTION CLIENT DEST: DEST must hold the source's bytes.
check() {
	local got
	if [ "$1" = 1 ]; then
		got=$(sha256sum "$3" | cut -d' ' -f1)
		[ "$got" = "$big_sum" ] || { echo "$2: the 256 MiB file differs from the source" >&2; exit 1; }
		return
	fi
	got=$(cd "$3" && find . -type f ! -name .urlget-mirror.lock -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "$2: the mirrored tree differs from the source" >&2; exit 1; }
}

# timed: runs cmd, printing its seconds.
timed() {
	local t
	t=$(now)
	"${cmd[@]}" >/dev/null 2>"$work/err" || { echo "failed: ${cmd[*]}" >&2; cat "$work/err" >&2; exit 1; }
	awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

# bench SECTION CLIENT...: REPS rounds, clients alternating; a no-change
# run after each first run of section 2; medians, urlget's ratio to each.
bench() {
	local s=$1 c i dest
	shift
	local -a clients=("$@")
	declare -A first again
	for i in $(seq "$REPS"); do
		for c in "${clients[@]}"; do
			dest=$out/$s-$c-$i
			[ "$s" = 1 ] || mkdir -p "$dest"
			sync
			argv "$c" "$s" "$dest"
			first[$c]+="$(timed) "
			[ "$i" != 1 ] || check "$s" "$c" "$dest"
			if [ "$s" = 2 ]; then
				again[$c]+="$(timed) "
			fi
			[ "$s" != 1 ] || rm -f "$dest"
		done
	done
	declare -A fm am
	for c in "${clients[@]}"; do
		fm[$c]=$(printf '%s\n' ${first[$c]} | median)
		printf '%-13s %s median %ss' "$c:" "${first[$c]}" "${fm[$c]}"
		if [ "$s" = 2 ]; then
			am[$c]=$(printf '%s\n' ${again[$c]} | median)
			printf '; no change: %s median %ss' "${again[$c]}" "${am[$c]}"
		fi
		echo
	done
	local u best=
	for u in "${clients[@]}"; do
		[[ $u == urlget* ]] || continue
		for c in "${clients[@]}"; do
			[[ $c != urlget* ]] || continue
			awk -v a="${fm[$u]}" -v b="${fm[$c]}" -v u="$u" -v c="$c" 'BEGIN { printf "ratio %s/%s: %.2f", u, c, a / b }'
			[ "$s" != 2 ] || awk -v a="${am[$u]}" -v b="${am[$c]}" 'BEGIN { printf ", no-change run %.2f", a / b }'
			echo
		done
	done
}

echo "== sftp bench: OpenSSH on $host:$port, $REPS rounds${WAN:+, WAN $WAN}"
if section 1; then
	echo "== 1. one 256 MiB file — target: urlget --segments 4 <= 0.9 x the best of the others"
	bench 1 urlget urlget-seg4 curl lftp rclone
fi
if section 2; then
	echo "== 2. mirror of $files files (1–8 KiB), -P $P — target: urlget <= 0.9 x the best of the others"
	bench 2 urlget lftp rclone
fi
