#!/bin/sh
# entrypoint.sh: run sshd (SFTP) on 127.0.0.1:2222. /srv/ssh is
# integration/.run/ssh on the host: the host key and bob's key pair are
# made there once, so that they stay the same from one start to the next
# and tests can write a known_hosts line and log in as bob.
set -eu
/usr/local/lib/testbed/logdir.sh sshd.log
keys=/srv/ssh
[ -s "$keys/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -C testbed-host -f "$keys/ssh_host_ed25519_key"
[ -s "$keys/bob_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C bob@testbed -f "$keys/bob_ed25519"
# Test keys, readable by whoever runs the tests on the host.
chmod 644 "$keys/bob_ed25519" "$keys/bob_ed25519.pub" "$keys/ssh_host_ed25519_key.pub"
chmod 600 "$keys/ssh_host_ed25519_key"
mkdir -p /etc/ssh/authorized
cp "$keys/bob_ed25519.pub" /etc/ssh/authorized/bob
chmod 755 /etc/ssh/authorized && chmod 644 /etc/ssh/authorized/bob
exec /usr/sbin/sshd -D -f /etc/ssh/testbed.conf -E /var/log/testbed/sshd.log
