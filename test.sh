#!/usr/bin/env bash
# The project's test command:
#   go vet ./...  ->  go test ./... (unit)  ->  integration/stack.sh up  ->
#   go test -tags integration -count=1 ./integration/...  ->  stack.sh down
# The stack is always taken down (trap). Each phase's duration is printed.
# Exits non-zero on the first failing phase.
#
# Environment: CI (passed to the integration tests: missing servers fail
# instead of skip), SKIP_UNIT=1 (skip vet and unit tests), KEEP_STACK=1 (leave
# the stack running afterwards), LOCK_TIMEOUT (seconds to wait for another
# run's stack, default 1800), BASE_IMAGE, STACK_TIMEOUT (see stack.sh).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

timings=()
stack_started=
now() { date +%s.%N; }
dur() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fs", b - a }'; }

summary() {
	local rc=$?
	if [ -n "$stack_started" ] && [ "${KEEP_STACK:-}" != 1 ]; then
		local t=$(now)
		integration/stack.sh down || { [ "$rc" -eq 0 ] && rc=1; }
		timings+=("stack down: $(dur "$t" "$(now)")")
	fi
	echo "== test.sh phase timings"
	local l
	for l in "${timings[@]}"; do echo "   $l"; done
	if [ "$rc" -eq 0 ]; then echo "== test.sh: PASS"; else echo "== test.sh: FAIL (exit $rc)"; fi
	exit "$rc"
}
trap summary EXIT

phase() { # phase NAME CMD…
	local name=$1 t rc
	shift
	echo "== $name: $*"
	t=$(now)
	"$@"
	rc=$?
	timings+=("$name: $(dur "$t" "$(now)")$([ $rc -ne 0 ] && echo " (FAILED, exit $rc)")")
	echo "== $name: $(dur "$t" "$(now)") (exit $rc)"
	[ $rc -eq 0 ] || exit $rc
}

if [ "${SKIP_UNIT:-}" != 1 ]; then
	phase "go vet" go vet ./...
	phase "unit tests" go test ./...
fi
# One stack per machine (fixed ports, one compose project): serialise
# concurrent test.sh runs, from any checkout, with a lock held until this
# script exits.
lock=${TESTBED_LOCK:-/tmp/urlget-testbed.lock}
exec 9>>"$lock"
chmod 666 "$lock" 2>/dev/null || true
if ! flock -n 9; then
	echo "== waiting for another test.sh run to release $lock"
	t=$(now)
	flock -w "${LOCK_TIMEOUT:-1800}" 9 || { echo "== gave up waiting for the lock"; exit 1; }
	timings+=("waiting for lock: $(dur "$t" "$(now)")")
fi
stack_started=1
phase "stack up" integration/stack.sh up
# -timeout: go test's default of 10 minutes a package is near what the
# integration package takes on a loaded 2-CPU machine (CI run 19: killed
# at 10m with load 10-15); 20 minutes still leaves a whole run well
# under half an hour.
phase "integration tests" env CI="${CI:-}" go test -tags integration -count=1 -timeout 20m ./integration/...
