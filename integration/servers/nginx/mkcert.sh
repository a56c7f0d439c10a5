#!/bin/sh
# mkcert.sh DIR: create a test CA (ca.pem, ca.key) and a server certificate
# for 127.0.0.1 / localhost signed by it (server.pem, server.key) in DIR.
set -eu
d=$1
mkdir -p "$d"
cd "$d"
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 \
	-keyout ca.key -out ca.pem -subj "/O=urlget test bed/CN=urlget test CA" \
	-addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
openssl req -new -newkey rsa:2048 -nodes -sha256 \
	-keyout server.key -out server.csr -subj "/O=urlget test bed/CN=127.0.0.1" 2>/dev/null
cat > server.ext <<'EXT'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost
EXT
openssl x509 -req -sha256 -days 825 -in server.csr -CA ca.pem -CAkey ca.key \
	-CAcreateserial -extfile server.ext -out server.pem 2>/dev/null
rm -f server.csr server.ext ca.srl
openssl verify -CAfile ca.pem server.pem
chmod 644 ca.pem server.pem
chmod 600 ca.key server.key
