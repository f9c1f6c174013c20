#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# knotif-compare's memory follows what it keeps (each series' numbers), not
# the size of the files: one series of 200,000 repetitions against 20,000
# (files shaped like a real run, ~630 bytes a row). Reading whole documents,
# the peak RSS grew ~6x as much as the files did (1.52 GB at 200k against
# 159 MB at 20k, for 227 MB more input); a row at a time, it must grow by
# less than half the input's growth. Peak RSS from /usr/bin/time, a ratio of
# two runs, no time limit: the figure cannot flake with load.
# Usage: gate-memory.sh KNOTIF_COMPARE SYNTHETIC_RUN TEMPLATE.json   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
cmp=$1 gen=$2 template=$3
[ -x /usr/bin/time ] || fail "/usr/bin/time is not installed (Debian package time: scripts/setup installs it)"
tmp=$TEST_TMP
# under the asan preset: freed rows would sit in ASan's quarantine (256 MB)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0

# peak_kb REPS: knotif-compare's peak RSS (KB) on two files of REPS repetitions
peak_kb() {
	"$gen" "$template" 1 "$1" 1 "$tmp/a.json" && "$gen" "$template" 1 "$1" 2 "$tmp/b.json" || exit 1
	stat -c %s "$tmp/a.json" "$tmp/b.json" | awk '{ s += $1 } END { print s / 1024 }' >"$tmp/input-kb"
	/usr/bin/time -f %M -o "$tmp/rss" "$cmp" --metric=p50 "$tmp/a.json" "$tmp/b.json" >"$tmp/out" 2>"$tmp/err" ||
		fail "knotif-compare exit $? on $1 repetitions: $(cat "$tmp/err")"
	grep -q '^verdict: pass' "$tmp/out" || fail "no pass verdict on $1 repetitions: $(cat "$tmp/out")"
	tail -n1 "$tmp/rss"
}
# peak_kb runs in a subshell: its fail ends only that, so its status is checked here
small=$(peak_kb 20000) || { echo "$small"; fail "the 20k-repetition run"; }
small_in=$(cat "$tmp/input-kb")
large=$(peak_kb 200000) || { echo "$large"; fail "the 200k-repetition run"; }
large_in=$(cat "$tmp/input-kb")
echo "peak RSS: $small KB at 20k repetitions, $large KB at 200k (input ${small_in%.*} KB, ${large_in%.*} KB)"
awk -v s="$small" -v l="$large" -v si="$small_in" -v li="$large_in" 'BEGIN {
	growth = (l - s) / (li - si)
	printf "RSS growth / input growth: %.3f (limit 0.5)\n", growth
	exit !(growth < 0.5) }' || fail "memory grows with the file, not with the series"
