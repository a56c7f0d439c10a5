#!/usr/bin/env bash
# bench/ldap.sh — LDAP against ldapsearch on the test bed's slapd (issue
# 35), in one run, the clients alternating in each of REPS rounds;
# medians and the ratio: the 10,000-entry subtree ou=bench,dc=example,dc=org
# (one level, about 1.7 MB of LDIF) as LDIF on stdout, anonymous:
#   urlget ldap://127.0.0.1:3389/ou=bench,dc=example,dc=org??one
#   ldapsearch -x -LLL -E pr=500/noprompt -b ou=bench,... -s one
# both asking for pages of 500 entries, so that slapd does the same work
# for each (and returns the entries in the same order).
# Target (issue 35): urlget <= 1.0 x ldapsearch.
# Each client's output of the first round is compared byte for byte with
# the other's (ldapsearch's "# pagedresults" comment lines removed): a
# client that is fast because it skips or mangles entries fails the bench.
#
# Environment: REPS (default 9), BIN (a urlget binary instead of one built
# from this tree). Needs: the stack up (integration/stack.sh up), and
# ldapsearch (ldap-utils, installed from Debian when missing).
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
REPS=${REPS:-9}
trap 'echo "bench/ldap.sh: line $LINENO: a command failed" >&2' ERR
. bench/lib.sh
need ldap-utils:ldapsearch
addr=127.0.0.1:3389 base=ou=bench,dc=example,dc=org
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${BIN:-$work/urlget}
[ -n "${BIN:-}" ] || CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget

argv() {
	case $1 in
	urlget) cmd=("$bin" -s "ldap://$addr/$base??one") ;;
	ldapsearch) cmd=(ldapsearch -x -LLL -E pr=500/noprompt -H "ldap://$addr" -b "$base" -s one) ;;
	esac
}

# timed OUT: runs cmd into OUT, printing its seconds.
timed() {
	local t
	t=$(now)
	"${cmd[@]}" >"$1" 2>"$work/err" || { echo "failed: ${cmd[*]}" >&2; cat "$work/err" >&2; exit 1; }
	awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

declare -A times
for i in $(seq "$REPS"); do
	for c in urlget ldapsearch; do
		argv "$c"
		times[$c]+="$(timed "$work/$c.ldif") "
	done
	if [ "$i" = 1 ]; then
		grep -v '^# pagedresults:' "$work/ldapsearch.ldif" >"$work/ref.ldif" || true
		cmp -s "$work/urlget.ldif" "$work/ref.ldif" || { echo "urlget's LDIF differs from ldapsearch's" >&2; exit 1; }
		entries=$(grep -c '^dn:' "$work/ref.ldif")
		bytes=$(wc -c <"$work/ref.ldif")
	fi
done
echo "== ldap bench: slapd on $addr, $base one level: $entries entries, $bytes bytes of LDIF, $REPS rounds"
declare -A med
for c in urlget ldapsearch; do
	med[$c]=$(printf '%s\n' ${times[$c]} | median)
	printf '%-11s %s median %ss\n' "$c:" "${times[$c]}" "${med[$c]}"
done
awk -v a="${med[urlget]}" -v b="${med[ldapsearch]}" 'BEGIN { printf "ratio urlget/ldapsearch: %.2f (target <= 1.0)\n", a / b }'
