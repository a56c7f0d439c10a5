#!/bin/sh
# Create the local Unix user alice (password "secret", shell /bin/bash) whose
# home differs from the anonymous FTP root; see integration/testbed (Alice*).
set -eu
id alice >/dev/null 2>&1 || useradd --create-home --home-dir /home/alice --shell /bin/bash --uid 1000 --user-group alice
echo 'alice:secret' | chpasswd
printf '%s\n' "This is alice's home directory (not the anonymous FTP root)." > /home/alice/README.txt
mkdir -p /home/alice/sub
printf 'alice sub note\n' > /home/alice/sub/note.txt
chown -R alice:alice /home/alice
chmod 755 /home/alice /home/alice/sub
chmod 644 /home/alice/README.txt /home/alice/sub/note.txt
