#!/bin/bash
# probe.sh MODE PORT [SEND [EXPECT]] — health probe against 127.0.0.1:PORT
# using bash's /dev/tcp (used by the compose health checks).
#   connect PORT                  the port accepts connections
#   prefix  PORT SEND EXPECT      after sending SEND (printf format, may be
#                                 empty) the reply starts with EXPECT
#   hex     PORT SEND HEX         the first bytes of the reply are HEX (lower case)
#   contains PORT SEND EXPECT     the reply (read to EOF, 5 s max) contains EXPECT
#   tls     PORT EXPECT           after a TLS handshake (openssl s_client, no
#                                 verification: health only) the reply starts
#                                 with EXPECT
set -u
mode=$1 port=$2 send=${3:-} expect=${4:-}
if [ "$mode" = tls ]; then
	expect=$send
	got=$(timeout 5 openssl s_client -connect "127.0.0.1:$port" -quiet </dev/null 2>/dev/null | head -c "${#expect}")
	[ "$got" = "$expect" ]
	exit
fi
exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
[ "$mode" = connect ] && exit 0
[ -n "$send" ] && printf "$send" >&3
case $mode in
prefix)
	got=$(timeout 5 head -c "${#expect}" <&3)
	[ "$got" = "$expect" ] ;;
hex)
	got=$(timeout 5 head -c "$(( ${#expect} / 2 ))" <&3 | od -An -tx1 | tr -d ' \n')
	[ "$got" = "$expect" ] ;;
contains)
	timeout 5 cat <&3 | grep -qF -- "$expect" ;;
*)
	echo "probe.sh: unknown mode $mode" >&2
	exit 2 ;;
esac
