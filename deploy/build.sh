#!/usr/bin/env bash
# deploy/build.sh [TAG]: build the urlget serve image (deploy/Dockerfile),
# TAG urlget:latest by default. The binary is built here with the Go of
# this machine, static (CGO_ENABLED=0), so that the image needs no
# builder image and no registry: its base is scratch.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tag=${1:-urlget:latest}
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$ctx/urlget" ./cmd/urlget
certs=/etc/ssl/certs/ca-certificates.crt
if [ ! -r "$certs" ]; then
	echo "deploy/build.sh: $certs is missing (Debian's ca-certificates); the image needs it for TLS" >&2
	exit 1
fi
cp "$certs" "$ctx/ca-certificates.crt"
mkdir "$ctx/home" "$ctx/tmp"
chmod 1777 "$ctx/tmp"
docker build -q -f deploy/Dockerfile -t "$tag" "$ctx"
