#!/usr/bin/env bash
# bench/fuzz.sh SECONDS — run every fuzz target of the module in turn, each
# for SECONDS, and print a summary (target, package, result, executions).
#
# The targets are found with `go test -list '^Fuzz' ./...`; each one runs as
#   go test -run '^$' -fuzz '^FuzzX$' -fuzztime SECONDSs ./pkg
# A crash makes Go write the failing input to pkg/testdata/fuzz/FuzzX/<hash>;
# the script leaves it there: it is a seed from then on (every `go test` runs
# it), so commit it with the fix. The output of each run is kept under
# $FUZZ_LOG (default ${TMPDIR:-/tmp}/urlget-fuzz-logs, outside the work
# tree) for the crash's stack trace.
#
# Results: ok; CRASH (a new failing input, kept as a seed); SEED (a kept
# input, a crash found before, still fails); BUILD (the package did not
# compile: someone is mid-change); FAIL (anything else).
# Exit status: 0 when every target ran its time without a failure; 1 when
# any result is not ok; 2 on a usage error.
#
# Environment: FUZZ_PKGS (package patterns to search, default ./...),
# FUZZ_MATCH (a regexp: only targets whose name matches), FUZZ_LOG.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

secs=${1:-}
case $secs in
'' | *[!0-9]* | 0)
	echo "usage: bench/fuzz.sh SECONDS (a positive whole number: fuzzing time per target)" >&2
	exit 2 ;;
esac
logdir=${FUZZ_LOG:-${TMPDIR:-/tmp}/urlget-fuzz-logs}
mkdir -p "$logdir"

# `go test -list` prints a package's target names before its "ok  pkg" line.
listing=$(go test -list '^Fuzz' ${FUZZ_PKGS:-./...} 2>&1)
targets=() # "pkg target"
broken=()  # packages that did not build: their targets cannot be listed
pending=()
while IFS= read -r line; do
	case $line in
	Fuzz*) pending+=("$line") ;;
	"ok "*)
		pkg=$(awk '{ print $2 }' <<<"$line")
		for t in "${pending[@]}"; do targets+=("$pkg $t"); done
		pending=() ;;
	FAIL*)
		# "FAIL pkg [build failed]"; a bare "FAIL" closes the listing.
		pkg=$(awk '{ print $2 }' <<<"$line")
		[ -n "$pkg" ] && broken+=("$pkg")
		pending=() ;;
	esac
done <<<"$listing"
if [ -n "${FUZZ_MATCH:-}" ]; then
	kept=()
	for pt in "${targets[@]}"; do
		[[ ${pt#* } =~ $FUZZ_MATCH ]] && kept+=("$pt")
	done
	targets=("${kept[@]}")
fi
echo "== ${#targets[@]} fuzz targets, ${secs}s each (logs in $logdir)"

rows=()
crashed=0
failed=0
for pt in "${targets[@]}"; do
	pkg=${pt% *} t=${pt#* }
	dir=$(go list -f '{{.Dir}}' "$pkg")
	before=$(ls "$dir/testdata/fuzz/$t" 2>/dev/null | sort)
	log="$logdir/${pkg##*/}.$t.log" # one target name may be in two packages
	start=$(date +%s)
	# -timeout bounds a run that hangs (the fuzzer has no per-input limit);
	# minimising a crash may take up to a minute more.
	go test -run '^$' -fuzz "^$t\$" -fuzztime "${secs}s" -timeout "$((secs + 180))s" "$pkg" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n1 | awk '{ print $2 }')
	new=$(comm -13 <(echo "$before") <(ls "$dir/testdata/fuzz/$t" 2>/dev/null | sort) | grep -v '^$')
	if [ $rc -eq 0 ]; then
		result=ok
	elif [ -n "$new" ] || grep -q 'Failing input written to' "$log"; then
		result=CRASH
		crashed=$((crashed + 1))
	elif grep -q 'failure while testing seed corpus entry' "$log"; then
		result=SEED # a kept input (a crash found before) still fails: not fixed yet
		crashed=$((crashed + 1))
	elif grep -q '\[build failed\]' "$log"; then
		result=BUILD # someone is mid-change: fuzz it again later
		failed=$((failed + 1))
	else
		result=FAIL
		failed=$((failed + 1))
	fi
	printf '%-6s %-24s %-45s %ss, %s execs\n' "$result" "$t" "${pkg#github.com/urlget/urlget}" "$took" "${execs:-?}"
	rows+=("$(printf '%-6s %-24s %-45s %10s' "$result" "$t" "${pkg#github.com/urlget/urlget}" "${execs:-?}")")
	if [ "$result" != ok ]; then
		# The failure's first lines: the panic or assertion and the input.
		grep -m 8 -E 'seed corpus entry|panic|--- FAIL|rror|undefined|Failing input|_test.go:[0-9]+|\.go:[0-9]+:[0-9]+:' "$log" | sed 's/^/       /'
		for f in $new; do echo "       seed kept: ${dir#"$root"/}/testdata/fuzz/$t/$f"; done
	fi
done

echo "== summary (${secs}s per target)"
printf '%-6s %-24s %-45s %10s\n' result target package execs
printf '%s\n' "${rows[@]}"
for p in "${broken[@]}"; do printf '%-6s %-24s %s\n' BUILD '(not listed)' "$p"; done
echo "== ${#targets[@]} targets: $((${#targets[@]} - crashed - failed)) ok, $crashed crashed, $failed failed (BUILD: package did not compile); ${#broken[@]} packages not listed (did not build)"
[ $crashed -eq 0 ] && [ $failed -eq 0 ] && [ ${#broken[@]} -eq 0 ]
