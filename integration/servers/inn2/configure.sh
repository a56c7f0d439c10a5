#!/bin/sh
# Configure INN 2.7 for the urlget test bed: 127.0.0.1:1119, no peers,
# readers.conf with anonymous access and one AUTHINFO user, the test groups.
set -eu
conf=/etc/news/inn.conf
set_key() { # set_key KEY VALUE
	if grep -q "^#* *$1:" "$conf"; then
		sed -i "0,/^#* *$1:.*/s||$1: $2|" "$conf"
	else
		printf '%s: %s\n' "$1" "$2" >> "$conf"
	fi
}
set_key domain localdomain
set_key pathhost urlget.test
set_key server 127.0.0.1
set_key port 1119
set_key nnrpdpostport 1119
set_key bindaddress 127.0.0.1
set_key doinnwatch false
set_key mta '"/bin/true %s"'
set_key pathlog /var/log/testbed
set_key readertrack false
set_key artcutoff 0
# nnrpd refuses readers ("400 load at …") above this load average; 0 = never.
set_key nnrpdloadlimit 0
set_key organization '"urlget test bed"'
# bindaddress6 must stay unset ("none" is rejected).
sed -i '/^bindaddress6:/d' "$conf"

install -m 644 -o root -g root /usr/local/lib/testbed/inn2-etc/readers.conf /etc/news/readers.conf
install -m 644 -o root -g root /usr/local/lib/testbed/inn2-etc/newsfeeds /etc/news/newsfeeds
install -m 640 -o root -g news /usr/local/lib/testbed/inn2-etc/incoming.conf /etc/news/incoming.conf

# AUTHINFO user reader/readpass (crypt SHA-512 hash, readable by news only).
hash=$(perl -e 'print crypt("readpass", q($6$urlgettestbed$))')
printf 'reader:%s\n' "$hash" > /etc/news/passwd
chown root:news /etc/news/passwd
chmod 640 /etc/news/passwd

# Newsgroups (the INN example active file has local.general and local.test).
db=/var/lib/news
add_group() { # add_group NAME FLAG DESCRIPTION
	grep -q "^$1 " $db/active || printf '%s 0000000000 0000000001 %s\n' "$1" "$2" >> $db/active
	grep -q "^$1	" $db/newsgroups || printf '%s\t%s\n' "$1" "$3" >> $db/newsgroups
	grep -q "^$1 " $db/active.times || printf '%s %s %s\n' "$1" 1704164645 root@urlget.test >> $db/active.times
}
add_group local.test y "Local test group (urlget)."
add_group local.misc y "Local miscellany (urlget)."
add_group comp.infosystems.www.misc y "Miscellaneous World Wide Web discussion (urlget)."
# Exactly one line per group (a duplicate kills innd silently).
test "$(cut -d' ' -f1 $db/active | sort | uniq -d)" = ""
chown news:news $db/active $db/newsgroups $db/active.times

mkdir -p /var/log/testbed /run/news
chown news:news /var/log/testbed /run/news
/usr/lib/news/bin/inncheck
