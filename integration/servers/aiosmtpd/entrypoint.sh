#!/bin/bash
# aiosmtpd on 127.0.0.1:2525 delivering every message into the Maildir
# /var/mail/testbed (the host directory integration/.run/mail). -dd logs every
# SMTP command and reply to /var/log/testbed/aiosmtpd.log (and docker logs).
set -eu
/usr/local/lib/testbed/logdir.sh aiosmtpd.log
mkdir -p /var/mail/testbed/new /var/mail/testbed/cur /var/mail/testbed/tmp
chmod 755 /var/mail/testbed /var/mail/testbed/new /var/mail/testbed/cur /var/mail/testbed/tmp
umask 022
exec /usr/bin/python3 -m aiosmtpd -n -dd -l 127.0.0.1:2525 -c aiosmtpd.handlers.Mailbox /var/mail/testbed \
	> >(exec tee -a /var/log/testbed/aiosmtpd.log) 2>&1
