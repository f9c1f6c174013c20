#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# knotif-history's tables on a run whose strings are hostile (the gate's
# hostile-run.sh): benchmark names with an escape sequence, a bell and
# U+202E, two of 10,000 characters that differ only in the middle, a run
# name with U+202E. list, show and trend must print no raw ESC, BEL or
# U+202E and no line longer than $LINE_MAX, the two long names must still
# read differently, and trend --format json and baseline keep every name
# whole. SQLite: the tables are the same whichever store holds the run.
# Usage: hostile-names.sh KNOTIF_HISTORY RUN_A HOSTILE_RUN_SH   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
backend=sqlite hist=$1 a=$2
. "$(dirname "$0")/store.sh"
. "$3"
store hostile

run() {		# LABEL ARGS...: exit 0 expected, stdout in $tmp/out
	local label=$1 rc
	shift
	checks=$((checks + 1))
	"$hist" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 0 ] || { soft_fail "$label: exit $rc"; cat "$tmp/err"; }
}

hostile_run "$a" "$tmp/evil.json"
run "record" record "$tmp/evil.json" --name "$(printf 'run\342\200\256x')" --db "$db"
terminal_safe "record" "$tmp/out"	# the host, kernel and git sha it names back

run "list" list --db "$db"
terminal_safe "list" "$tmp/out"
check "list: the run name's U+202E not shown as \\u202e" grep -qF 'run\u202ex' "$tmp/out"

run "show" show last --db "$db"
terminal_safe "show" "$tmp/out"
check "show: the hostile name not escaped" grep -qF 'unotif\x1b[2J\x07/\u202eevil/placement:same' "$tmp/out"
check "show: the two long names not shown as two" \
	[ "$(grep '^L0000' "$tmp/out" | awk '{ print $1 }' | sort -u | wc -l)" = 2 ]
check "show: the long names not elided" grep -q '^L0000.*…#[0-9a-f]\{8\}…' "$tmp/out"

run "trend" trend --db "$db"
terminal_safe "trend" "$tmp/out"
check "trend: U+202E not shown as \\u202e" grep -qF '\u202eevil' "$tmp/out"
check "trend: the two long names not shown as two" \
	[ "$(grep '^L0000' "$tmp/out" | awk '{ print $1 }' | sort -u | wc -l)" = 2 ]

run "trend json" trend --format json --db "$db"
json_names "trend --format json" "$EVIL" "$LONG1" "$LONG2" <"$tmp/out"
run "baseline" baseline last:1 --db "$db"
json_names "baseline last:1" "$EVIL" "$LONG1" "$LONG2" <"$tmp/out"

[ "$fails" = 0 ] && echo "ok: $checks checks: hostile names escaped and bounded in list, show and trend, whole in JSON"
finish
