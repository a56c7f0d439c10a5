#!/usr/bin/env bash
# Create the local Debian base image for the test bed when no container
# registry is reachable: debootstrap (minbase, bookworm) from the mirror that
# the host's APT configuration names, then `docker import`.
#
# Usage: integration/bootstrap-base.sh         (prints BASE_IMAGE=...)
#        eval "$(integration/bootstrap-base.sh)" to export BASE_IMAGE
# Env:   BASE_IMAGE  image name to create (default urlget-base:bookworm)
#        SUITE       Debian suite (default bookworm)
set -euo pipefail

BASE_IMAGE=${BASE_IMAGE:-urlget-base:bookworm}
SUITE=${SUITE:-bookworm}
SOURCES=/etc/apt/sources.list.d/debian.sources

log() { echo "bootstrap-base: $*" >&2; }

if docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
	log "image $BASE_IMAGE already exists, skipping"
	echo "export BASE_IMAGE=$BASE_IMAGE"
	exit 0
fi

# The first URIs: value of the stanza that carries the main suite.
mirror=""
if [ -r "$SOURCES" ]; then
	mirror=$(awk -v suite="$SUITE" '
		/^[[:space:]]*$/ { if (uri != "" && has) { print uri; exit } uri=""; has=0; next }
		/^URIs:/ { uri=$2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) has=1 }
		END { if (uri != "" && has) print uri }' "$SOURCES" | head -n1)
fi
if [ -z "$mirror" ] && [ -r /etc/apt/sources.list ]; then
	mirror=$(awk -v suite="$SUITE" '$1 == "deb" && $0 ~ " "suite" " { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list | head -n1)
fi
if [ -z "$mirror" ]; then
	log "no Debian mirror found in $SOURCES or /etc/apt/sources.list"
	exit 1
fi

command -v debootstrap >/dev/null || { log "debootstrap not installed"; exit 1; }

rootfs=$(mktemp -d /tmp/urlget-rootfs.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT

start=$(date +%s)
log "debootstrap --variant=minbase $SUITE from $mirror"
debootstrap --variant=minbase "$SUITE" "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || {
	tail -n 30 "$rootfs.log" >&2
	log "debootstrap failed (full log: $rootfs.log)"
	exit 1
}
rm -f "$rootfs.log"
# Keep the image small and clean.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
# Copy the host's APT sources so builds see the same suites (updates, security).
if [ -r "$SOURCES" ]; then
	rm -f "$rootfs/etc/apt/sources.list"
	mkdir -p "$rootfs/etc/apt/sources.list.d"
	cp "$SOURCES" "$rootfs/etc/apt/sources.list.d/debian.sources"
fi

log "docker import as $BASE_IMAGE"
tar -C "$rootfs" -c . | docker import -c 'CMD ["/bin/bash"]' -c 'ENV LANG=C.UTF-8' - "$BASE_IMAGE" >/dev/null
log "done in $(( $(date +%s) - start ))s"
echo "export BASE_IMAGE=$BASE_IMAGE"
