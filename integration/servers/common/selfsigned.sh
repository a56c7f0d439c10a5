#!/bin/sh
# selfsigned.sh KEY_AND_CERT PUBLISHED_CERT: make a fresh self-signed
# certificate for 127.0.0.1 (CN and SAN, 7 days); write key and certificate
# to KEY_AND_CERT (mode 600: the file vsftpd and pure-ftpd read) and the
# certificate alone to PUBLISHED_CERT (world-readable, in the log directory,
# for the tests on the host to verify the server with).
set -eu
tmp=$(mktemp -d)
openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
mkdir -p "$(dirname "$1")"
cat "$tmp/key.pem" "$tmp/cert.pem" >"$1"
chmod 600 "$1"
cp "$tmp/cert.pem" "$2"
chmod 644 "$2"
rm -rf "$tmp"
