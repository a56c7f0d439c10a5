#!/bin/sh
# fixture.sh: write the test directory as LDIF on stdout (for slapadd).
#
# dc=example,dc=org
#   cn=reader         the bind user (userPassword "reader-secret")
#   ou=dept1..ou=dept4            level 1
#     ou=team1..ou=team4          level 2
#       cn=person N (15 a team)   level 3: inetOrgPerson; every 5th with
#                                 a UTF-8 cn, every 7th with a jpegPhoto
#                                 (random bytes), every 11th with a long
#                                 description (folded lines), every 13th
#                                 a description with a leading space
#   ou=bench          10,000 inetOrgPerson entries, one level (the bench)
#   ou=referrals      cn=here, and ou=elsewhere: a referral object (RFC
#                     3296) to ou=team1,ou=dept1 on this server, which a
#                     search below it meets as a SearchResultReference
set -eu
photos=$(for i in 1 2 3; do head -c 2000 /dev/urandom | base64 -w0; echo; done)
cat <<'LDIF'
dn: dc=example,dc=org
objectClass: dcObject
objectClass: organization
dc: example
o: Example

dn: cn=reader,dc=example,dc=org
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: reader-secret

dn: ou=bench,dc=example,dc=org
objectClass: organizationalUnit
ou: bench

dn: ou=referrals,dc=example,dc=org
objectClass: organizationalUnit
ou: referrals

dn: cn=here,ou=referrals,dc=example,dc=org
objectClass: organizationalRole
cn: here

dn: ou=elsewhere,ou=referrals,dc=example,dc=org
objectClass: referral
objectClass: extensibleObject
ou: elsewhere
ref: ldap://127.0.0.1:3389/ou=team1,ou=dept1,dc=example,dc=org

LDIF
echo "$photos" | awk '
{ photo[NR % 3] = $0 }
END {
	n = 0
	for (d = 1; d <= 4; d++) {
		printf "dn: ou=dept%d,dc=example,dc=org\nobjectClass: organizationalUnit\nou: dept%d\n\n", d, d
		for (t = 1; t <= 4; t++) {
			printf "dn: ou=team%d,ou=dept%d,dc=example,dc=org\nobjectClass: organizationalUnit\nou: team%d\n\n", t, d, t
			for (p = 1; p <= 15; p++) {
				n++
				cn = "person " n
				if (n % 5 == 0) cn = "Zoë Ñandú " n
				printf "dn: cn=%s,ou=team%d,ou=dept%d,dc=example,dc=org\n", cn, t, d
				printf "objectClass: inetOrgPerson\ncn: %s\nsn: Number%d\n", cn, n
				printf "mail: person%d@example.org\nuid: p%d\n", n, n
				if (n % 7 == 0) printf "jpegPhoto:: %s\n", photo[n % 3]
				if (n % 11 == 0) {
					printf "description: "
					for (i = 0; i < 30; i++) printf "word%d ", i
					printf "end\n"
				}
				if (n % 13 == 0) printf "description:: %s\n", "IGxlYWRpbmcgc3BhY2U="
				printf "\n"
			}
		}
	}
	for (b = 1; b <= 10000; b++) {
		printf "dn: uid=b%05d,ou=bench,dc=example,dc=org\n", b
		printf "objectClass: inetOrgPerson\nuid: b%05d\ncn: Bench Person %d\nsn: Bench%d\n", b, b, b
		printf "mail: b%05d@example.org\ntelephoneNumber: +1 555 %07d\n\n", b, b
	}
}'
