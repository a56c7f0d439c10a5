#!/bin/sh
# yaz-ztest on 127.0.0.1:2100 (Z39.50's port 210 is privileged; the test
# bed binds unprivileged ports only), logging each request and every APDU
# (-a) where the tests can read them.
set -eu
/usr/local/lib/testbed/logdir.sh ztest.log apdu.log
exec yaz-ztest -l /var/log/testbed/ztest.log -a /var/log/testbed/apdu.log tcp:127.0.0.1:2100
