#!/usr/bin/env bash
# Manage the integration test bed (docker-compose.yml at the repository root).
#
#   integration/stack.sh up     generate fixtures, build images, start, wait healthy
#   integration/stack.sh wait   wait until every container is healthy
#   integration/stack.sh logs [SERVICE…]   container output (docker logs)
#   integration/stack.sh ps     container status
#   integration/stack.sh down   stop and remove the containers
#
# Environment:
#   BASE_IMAGE     base of every image (default: urlget-base:bookworm when it
#                  exists locally, else debian:bookworm-slim)
#   STACK_TIMEOUT  seconds to wait for health (default 180)
#   STACK_VERBOSE  1 = show the image build output (else in .run/build.log)
#   COMPOSE_PROJECT_NAME  (default urlget-testbed)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export COMPOSE_PROJECT_NAME=${COMPOSE_PROJECT_NAME:-urlget-testbed}
run=integration/.run
services=(vsftpd vsftpd-ftps proftpd pureftpd nginx gophernicus gophernicus-tls finger pygopherd gemini gopherplus waisd dirsrv inn2 telnetd tinyproxy aiosmtpd sftp yaz zebra slapd)

log() { echo "stack: $*" >&2; }
die() { log "$*"; exit 1; }

# docker compose v2 if available, else docker-compose 1.x.
if docker compose version >/dev/null 2>&1; then
	compose_cmd=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
	compose_cmd=(docker-compose)
else
	die "neither 'docker compose' nor 'docker-compose' is installed"
fi
compose() { "${compose_cmd[@]}" -f "$root/docker-compose.yml" "$@"; }

pick_base() {
	if [ -z "${BASE_IMAGE:-}" ]; then
		if docker image inspect urlget-base:bookworm >/dev/null 2>&1; then
			BASE_IMAGE=urlget-base:bookworm
		else
			BASE_IMAGE=debian:bookworm-slim
		fi
	fi
	export BASE_IMAGE
	if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
		log "base image $BASE_IMAGE is not available locally;"
		log "create one with integration/bootstrap-base.sh (no registry needed)"
		exit 1
	fi
}

prepare() {
	mkdir -p "$run/certs" "$run/mail" "$run/ssh"
	for s in "${services[@]}"; do mkdir -p "$run/logs/$s"; done
	# Fresh logs and mail for every run.
	find "$run/logs" -mindepth 2 -maxdepth 2 -type f -delete
	rm -f "$run/certs/"*.pem
	rm -rf "$run/mail/new" "$run/mail/cur" "$run/mail/tmp"
	go run ./integration/cmd/mkfixtures -o "$run/fixtures"
	# The gopherplus service runs this binary on the base image (no build).
	CGO_ENABLED=0 go build -o "$run/bin/gopherplusd" ./integration/cmd/gopherplusd
	# And urlget's WAIS server (it writes its corpus into $run/wais when it
	# starts).
	CGO_ENABLED=0 go build -o "$run/bin/waisd" ./integration/cmd/waisd
	mkdir -p "$run/wais"
	# And its Prospero server (it writes its native tree into $run/prospero).
	CGO_ENABLED=0 go build -o "$run/bin/dirsrv" ./integration/cmd/dirsrv
	mkdir -p "$run/prospero"
	# The zebra service indexes this MARC catalogue when it starts.
	go run ./integration/cmd/mkmarc -o "$run/zebra"
	# So does toxiproxy's server, a module of its own (its dependencies stay
	# out of urlget's go.mod).
	(cd integration/cmd/toxiproxyd && CGO_ENABLED=0 go build -o "$root/$run/bin/toxiproxyd" .)
}

secs() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(secs)" 'BEGIN { printf "%.1fs", b - a }'; }

wait_healthy() {
	local timeout=${STACK_TIMEOUT:-180} start ids id name status pending
	start=$(secs)
	ids=$(compose ps -q)
	[ -n "$ids" ] || die "no containers (run '$0 up')"
	while :; do
		pending=()
		for id in $ids; do
			read -r name status < <(docker inspect -f '{{.Name}} {{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id")
			case $status in
			healthy) ;;
			unhealthy | exited | dead)
				log "${name#/} is $status; its output:"
				docker logs --tail 40 "$id" >&2 || true
				docker inspect -f '{{range .State.Health.Log}}{{.Output}}{{end}}' "$id" 2>/dev/null | tail -n 5 >&2 || true
				exit 1 ;;
			*) pending+=("${name#/}:$status") ;;
			esac
		done
		if [ ${#pending[@]} -eq 0 ]; then
			log "all $(wc -w <<<"$ids") containers healthy after $(elapsed "$start")"
			return 0
		fi
		if awk -v a="$start" -v b="$(secs)" -v t="$timeout" 'BEGIN { exit !(b - a > t) }'; then
			log "timeout after ${timeout}s; not healthy: ${pending[*]}"
			compose ps >&2 || true
			exit 1
		fi
		sleep 0.5
	done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
up)
	pick_base
	t=$(secs)
	prepare
	log "fixtures ready ($(elapsed "$t"))"
	t=$(secs)
	log "building images FROM $BASE_IMAGE with ${compose_cmd[*]}"
	# The build output goes to $run/build.log (shown on failure, or always
	# with STACK_VERBOSE=1).
	build_args=()
	[ "${compose_cmd[0]}" = docker-compose ] && build_args+=(--parallel)
	if ! compose build "${build_args[@]}" "$@" >"$run/build.log" 2>&1; then
		tail -n 80 "$run/build.log" >&2
		die "image build failed (full log: $run/build.log)"
	fi
	[ "${STACK_VERBOSE:-}" = 1 ] && cat "$run/build.log" >&2
	log "images built ($(elapsed "$t"))"
	t=$(secs)
	# Always fresh containers: clean logs, mail and seeded news articles.
	compose up -d --no-build --force-recreate --remove-orphans
	wait_healthy
	log "stack up ($(elapsed "$t"))"
	;;
wait) wait_healthy ;;
logs) compose logs --no-color "$@" ;;
ps) compose ps ;;
down)
	pick_base 2>/dev/null || true
	t=$(secs)
	compose down --remove-orphans --timeout 5
	log "stack down ($(elapsed "$t"))"
	;;
*)
	sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2 ;;
esac
