# bench/lib.sh — sourced by the bench scripts (after they cd to the
# repository's root): what each of them needs done the same way.

# now prints the time in seconds, to the nanosecond.
now() { date +%s.%N; }

# median prints the median of the numbers on stdin, one a line.
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# need PKG:COMMAND...: installs the Debian package PKG of each COMMAND
# that is missing (apt-get, as root), and fails naming a COMMAND still
# missing after that.
need() {
	local pkg
	for pkg in "$@"; do
		command -v "${pkg#*:}" >/dev/null && continue
		echo "== installing ${pkg%%:*} (apt-get)" >&2
		apt-get install -y "${pkg%%:*}" >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 && apt-get install -y "${pkg%%:*}" >/dev/null 2>&1; } || true
		command -v "${pkg#*:}" >/dev/null || { echo "${pkg#*:} not installed" >&2; exit 1; }
	done
}

# small_tree DIR: DIR made anew as the mirror benches' tree of small
# files: 20 directories of 100 files each, sizes 1–8 KiB, random bytes.
small_tree() {
	local d f
	rm -rf "$1"
	mkdir -p "$1"
	for d in $(seq -w 1 20); do
		mkdir -p "$1/d$d"
		for f in $(seq -w 1 100); do
			head -c $(((10#$d * 100 + 10#$f) % 8 * 1024 + 1024)) /dev/urandom >"$1/d$d/f$f.bin"
		done
	done
}

# mirror_tree DIR: DIR made anew as bench/mirror.sh's tree — small_tree
# and four 16 MiB files at the top, times fixed, readable by the servers —
# and its figures in files, bytes and want (the SHA-256 of every file's
# SHA-256, in path order), which each run's copy is checked against.
mirror_tree() {
	local i
	small_tree "$1"
	for i in 1 2 3 4; do head -c 16777216 /dev/urandom >"$1/big$i.bin"; done
	find "$1" -exec touch -d '2024-01-02 03:04:05 UTC' {} +
	chmod -R a+rX "$1"
	files=$(find "$1" -type f | wc -l)
	bytes=$(find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	want=$(cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}
