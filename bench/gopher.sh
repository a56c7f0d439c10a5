#!/usr/bin/env bash
# bench/gopher.sh — urlget vs curl against gophernicus in the test bed (7070):
# N (default 1,000) fetches of a small text item (/text/lf.txt, type 0),
#   1. one process per fetch (the usual shell loop), alternating the two
#      clients in blocks of BLOCK fetches;
#   2. all N URLs on one command line (one process each client).
# Prints wall times and the ratio urlget/curl (target <= 1.0).
# gophernicus runs under xinetd with "cps = 1000 1" (integration/servers/
# gophernicus/xinetd.conf): more than 1,000 connections in a second pause the
# service for a second, so the one-command-line runs are split in chunks of
# CHUNK URLs with a pause between them (not counted), and every output is
# checked so a refused connection cannot pass for a fast one.
# Needs: the stack up (integration/stack.sh up) and curl.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
N=${N:-1000}
BLOCK=${BLOCK:-100}
CHUNK=${CHUNK:-500}
url="gopher://127.0.0.1:7070/0/text/lf.txt"
command -v curl >/dev/null || { echo "curl not installed" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/urlget
CGO_ENABLED=0 go build -o "$bin" ./cmd/urlget

want=$(cat integration/.run/fixtures/text/lf.txt)
[ "$("$bin" -s "$url")" = "$want" ] || { echo "urlget: wrong content (stack up?)" >&2; exit 1; }
# curl keeps gophernicus's CRLF line ends; compare without CRs.
[ "$(curl -sS "$url" | tr -d '\r')" = "$want" ] || { echo "curl: wrong content" >&2; exit 1; }

now() { date +%s.%N; }
sum=0
add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a + b }'; }

echo "== $N fetches, one process each (alternating blocks of $BLOCK)"
ut=0 ct=0 bad=0
for _ in $(seq $((N / BLOCK))); do
	t=$(now)
	for _ in $(seq "$BLOCK"); do "$bin" -s "$url" >"$tmp/u" || bad=$((bad + 1)); done
	ut=$(add "$ut" "$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')")
	t=$(now)
	for _ in $(seq "$BLOCK"); do curl -sS "$url" >"$tmp/c" || bad=$((bad + 1)); done
	ct=$(add "$ct" "$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')")
done
echo "urlget: ${ut}s  ($(awk -v t="$ut" -v n="$N" 'BEGIN { printf "%.2f", t * 1000 / n }') ms/fetch)"
echo "curl:   ${ct}s  ($(awk -v t="$ct" -v n="$N" 'BEGIN { printf "%.2f", t * 1000 / n }') ms/fetch)"
echo "failed fetches: $bad"
awk -v a="$ut" -v b="$ct" 'BEGIN { printf "ratio urlget/curl: %.2f (target <= 1.0)\n", a / b }'

echo "== $N URLs on one command line, in chunks of $CHUNK (1.2 s pause between chunks, not counted)"
urls=()
for _ in $(seq "$CHUNK"); do urls+=("$url"); done
ut=0 ct=0
for _ in $(seq $((N / CHUNK))); do
	sleep 1.2
	t=$(now); "$bin" -s "${urls[@]}" >"$tmp/u"; ut=$(add "$ut" "$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')")
	[ "$(wc -c <"$tmp/u")" -eq $((CHUNK * ${#want} + CHUNK)) ] || echo "urlget: short output ($(wc -c <"$tmp/u") bytes)" >&2
	sleep 1.2
	t=$(now); curl -sS "${urls[@]}" >"$tmp/c"; ct=$(add "$ct" "$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')")
	[ "$(tr -d '\r' <"$tmp/c" | wc -c)" -eq $((CHUNK * ${#want} + CHUNK)) ] || echo "curl: short output" >&2
done
echo "urlget: ${ut}s"
echo "curl:   ${ct}s"
awk -v a="$ut" -v b="$ct" 'BEGIN { printf "ratio urlget/curl: %.2f\n", a / b }'
