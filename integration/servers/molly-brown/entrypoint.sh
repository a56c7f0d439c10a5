#!/bin/sh
# Two molly-brown servers on one capsule: 127.0.0.1:1965, and
# 127.0.0.1:1966 with a certificate of its own, so that the tests can show
# a server whose certificate changed (trust on first use). Each makes a
# fresh self-signed certificate at start, as gemini servers' usually are,
# published in the log directory for the tests to compare; /private/
# asks for a client certificate (status 60/61).
set -eu
/usr/local/lib/testbed/logdir.sh access-1965.log error-1965.log access-1966.log error-1966.log
ln -sfn /srv/fixtures /srv/gemini/fixtures
# A client identity for the tests (client.pem: key and certificate), the
# only one /private/ lets in (molly-brown's CertificateZones: the SHA-256
# of its DER).
/usr/local/lib/testbed/selfsigned.sh /var/log/testbed/client.pem /var/log/testbed/client-cert.pem
chmod 644 /var/log/testbed/client.pem
client=$(openssl x509 -in /var/log/testbed/client-cert.pem -outform DER | sha256sum | cut -d' ' -f1)
for port in 1965 1966; do
	dir=/etc/testbed/gemini-$port
	mkdir -p "$dir"
	/usr/local/lib/testbed/selfsigned.sh "$dir/both.pem" "/var/log/testbed/cert-$port.pem"
	openssl pkey -in "$dir/both.pem" -out "$dir/key.pem"
	openssl x509 -in "$dir/both.pem" -out "$dir/cert.pem"
	cat >"$dir/molly.conf" <<CONF
Port = $port
Hostname = "127.0.0.1"
CertPath = "$dir/cert.pem"
KeyPath = "$dir/key.pem"
DocBase = "/srv/gemini/"
AccessLog = "/var/log/testbed/access-$port.log"
ErrorLog = "/var/log/testbed/error-$port.log"
CGIPaths = [ "/srv/gemini/cgi-bin/" ]
DirectoryListing = true

[TempRedirects]
"^/old$" = "/about.gmi"
"^/loop-a$" = "/loop-b"
"^/loop-b$" = "/loop-a"

[PermRedirects]
"^/moved$" = "/docs/"

[CertificateZones]
"^/private/" = [ "$client" ]
CONF
done
molly-brown -c /etc/testbed/gemini-1966/molly.conf &
exec molly-brown -c /etc/testbed/gemini-1965/molly.conf
