#!/bin/bash
# A line-based login service without telnet negotiation (CRLF lines):
#   urlget line service ready / login: / Password: / Welcome, alice. … or
#   Login incorrect; then "> " prompts answering "echo: <line>" until "quit".
# The password is checked against the test account alice/secret only.
out() { printf '%s\r\n' "$*"; }
prompt() { printf '%s' "$1"; }
readline() { # strips the CR of a CRLF line; fails at EOF or after 60 s idle
	IFS= read -r -t 60 REPLY || [ -n "$REPLY" ] || return 1
	REPLY=${REPLY%$'\r'}
}
out "urlget line service ready"
prompt "login: "
readline || exit 0
user=$REPLY
prompt "Password: "
readline || exit 0
pass=$REPLY
if [ "$user" != alice ] || [ "$pass" != secret ]; then
	out "Login incorrect"
	exit 0
fi
out "Welcome, alice. Type a line to have it echoed, quit to leave."
while prompt "> " && readline; do
	case $REPLY in
	quit) out "Goodbye."; exit 0 ;;
	*) out "echo: $REPLY" ;;
	esac
done
