#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# knotif-compare on result files whose strings are hostile (hostile-run.sh):
# benchmark names with an escape sequence, a bell and U+202E, two of 10,000
# characters that differ only in the middle, and a host, kernel, git sha
# and syscall with controls in them. Its console output (table, "# base:"
# lines, verdict line) and its warnings must carry no raw ESC, BEL or
# U+202E and no line longer than $LINE_MAX; the two long names must still
# read differently; --format=json must keep every name whole.
# Usage: gate-hostile-names.sh KNOTIF_COMPARE DATA_DIR   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
cmp=$1 data=$2
need jq
tmp=$TEST_TMP
. "$(dirname "$0")/hostile-run.sh"

hostile_run "$data/run-a.json" "$tmp/base.json"
# another host and syscall, both hostile: the warnings name them
hostile_run "$data/run-a.json" "$tmp/other.json" "$(printf 'vm2\342\200\256\033[2J')"
jq --arg s "$(printf 'getppid\a\342\200\256')" '.context.knotif.syscall = $s' "$tmp/other.json" >"$tmp/new.json"
# each hostile name 2x slower in turn: the verdict line names it
slower() {	# NAME OUT
	jq --arg n "$1" '.benchmarks |= map(if .run_name == $n and .aggregate_name != "cv" then
		reduce ("real_time", "cpu_time", "min", "p50", "p90", "p99", "p999", "max", "stddev",
			"floor_ratio") as $k (.; if has($k) then .[$k] *= 2 else . end) else . end)' \
		"$tmp/base.json" >"$2"
}
slower "$EVIL" "$tmp/evil2.json"
slower "$LONG1" "$tmp/long2.json"

"$cmp" "$tmp/base.json" "$tmp/base.json" >"$tmp/same" 2>&1
rc=$?
check "hostile vs itself: exit $rc, expected 0 (pass)" [ "$rc" = 0 ]
terminal_safe "hostile vs itself" "$tmp/same"
check "hostile vs itself: U+202E not shown as \\u202e" grep -qF '\u202eevil' "$tmp/same"
check "hostile vs itself: ESC and BEL not shown as \\xNN" grep -qF 'unotif\x1b[2J\x07/' "$tmp/same"
check "hostile vs itself: the '# base:' facts not escaped: $(head -n 1 "$tmp/same")" \
	grep -qF '(vm\x1b]0;owned\x07, 6.18\u202e\x1b[31m, git abc\x07\u2066,' "$tmp/same"
# the long names: elided, and still two
check "hostile vs itself: the long names not elided" [ "$(grep -c '^L0000.*…#[0-9a-f]\{8\}…' "$tmp/same")" = 2 ]
check "hostile vs itself: the two long names read the same" \
	[ "$(grep '^L0000' "$tmp/same" | awk '{ print $1 }' | sort -u | wc -l)" = 2 ]

"$cmp" --metric=p50 "$tmp/base.json" "$tmp/new.json" >"$tmp/warned" 2>&1
terminal_safe "other host and syscall (warnings)" "$tmp/warned"
check "different hosts: no escaped warning: $(grep warning "$tmp/warned")" \
	grep -qF 'different hosts (vm\x1b]0;owned\x07, vm2\u202e\x1b[2J)' "$tmp/warned"
check "different syscalls: no escaped warning: $(grep warning "$tmp/warned")" \
	grep -qF 'different syscalls (getppid, getppid\x07\u202e)' "$tmp/warned"

for slow in evil2 long2; do
	"$cmp" "$tmp/base.json" "$tmp/$slow.json" >"$tmp/out" 2>&1
	rc=$?
	check "$slow: exit $rc, expected 1 (a regression)" [ "$rc" = 1 ]
	terminal_safe "$slow" "$tmp/out"
	check "$slow: no REGRESSION line: $(tail -n 1 "$tmp/out")" grep -q '^verdict: REGRESSION: 1 of' "$tmp/out"
done

"$cmp" --format=json "$tmp/base.json" "$tmp/long2.json" >"$tmp/json" 2>/dev/null
json_names "--format=json" "$EVIL" "$LONG1" "$LONG2" <"$tmp/json"

[ "$fails" = 0 ] && echo "ok: hostile names and facts escaped and bounded on the terminal, whole in JSON"
finish
