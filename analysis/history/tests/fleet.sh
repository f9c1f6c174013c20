#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A fleet sharing one history: a run recorded by one runner is the baseline
# of another runner of its machine class, through the database —
# knotif-compare --history, and analysis/ci-gate --baseline-history on this
# machine (a short real suite: it seeds its class, then gates against it and
# records its runs with the verdict the gate gave; then against the rolling
# baseline and the class's anchor, first:1, at once). A runner of another
# class finds no baseline and is told so. On PostgreSQL, ci-gate is given
# the history with a password, which none of its output shows.
# Usage: fleet.sh sqlite|postgresql BUILD_DIR CI_GATE RUN_A RUN_B   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
backend=$1 build=$2 gate=$3 a=$4 b=$5
. "$(dirname "$0")/store.sh"
store fleet

# runner-1 records; runner-2, same class, gates against it
jq '.context.host_name = "runner-1"' "$a" >"$tmp/r1.json"
jq '.context.host_name = "runner-2"' "$b" >"$tmp/r2.json"
jq '.context.host_name = "runner-3" | .context.num_cpus = 64' "$b" >"$tmp/r3.json"
"$build/knotif-history" record "$tmp/r1.json" --db "$db" >/dev/null || soft_fail "runner-1 record"
"$build/knotif-compare" --history=last --db="$db" "$tmp/r2.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] || soft_fail "runner-2 vs the history: exit $rc: $(cat "$tmp/err")"
grep -q '^# base: history last (1 run of AMD EPYC, 2 CPUs, .*) (runner-1, ' "$tmp/out" ||
	soft_fail "runner-2's base is not runner-1's run: $(head -n 1 "$tmp/out")"
KNOTIF_DB=$db "$build/knotif-compare" --history=last "$tmp/r3.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || soft_fail "runner-3 (64 CPUs): exit $rc, $(wc -l <"$tmp/err") lines"
grep -q "holds 0 of class 'AMD EPYC, 64 CPUs" "$tmp/err" || soft_fail "runner-3: message: $(cat "$tmp/err")"

# this machine through ci-gate: seed the class, then gate against it
gate_db=$db
# the private server trusts every local user: any password is accepted, and must never be shown
[ "$backend" != postgresql ] || gate_db="postgresql://knotif:Zq9xsecret@/fleet?host=$pg_dir"
no_password() {	# LABEL: ci-gate's output of that call
	! grep -qF Zq9x "$tmp/out" "$tmp/err" || soft_fail "$1: the password was printed: $(grep -hF Zq9x "$tmp/out" "$tmp/err")"
}
quick=(--build "$build" --history "$gate_db" --runs 1 --reps 9 --samples 200)
"$gate" --update-baseline --baseline-history last:1 "${quick[@]}" >"$tmp/out" 2>"$tmp/err" ||
	soft_fail "ci-gate seeding: $(tail -n 3 "$tmp/err")"
no_password "ci-gate seeding"
[ "$backend" != postgresql ] || grep -qF "recorded in postgresql://knotif:***@/fleet" "$tmp/out" ||
	soft_fail "ci-gate seeding: the history not named, masked: $(cat "$tmp/out")"
seeded=$(q 'SELECT max(id) FROM runs')
[ "$seeded" = 2 ] && [ -z "$(q "SELECT gate FROM runs WHERE id = 2")" ] || soft_fail "seeding: run 2 without a verdict expected"
class=$(q "SELECT machine_class FROM runs WHERE id = 2")
"$gate" --baseline-history last:1 "${quick[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
case $rc in
0) want=pass ;;
1) want=fail ;;
*) want=''; soft_fail "ci-gate vs the history: exit $rc: $(tail -n 3 "$tmp/err")" ;;
esac
grep -qF "# base: history last:1 (1 run of $class)" "$tmp/out" || soft_fail "ci-gate's base: $(head -n 1 "$tmp/out")"
no_password "ci-gate vs the history"
[ "$(q 'SELECT count(*) FROM runs')" = 3 ] || soft_fail "ci-gate did not record its run"
[ "$(q 'SELECT gate FROM runs WHERE id = 3')" = "$want" ] || soft_fail "run 3's verdict: '$(q 'SELECT gate FROM runs WHERE id = 3')', the gate said '$want'"

# the rolling baseline and the anchor that does not move, in one gate
"$gate" --baseline-history last:1 --anchor-history first:1 "${quick[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
case $rc in
0) want=pass ;;
1) want=fail ;;
*) want=''; soft_fail "ci-gate with an anchor: exit $rc: $(tail -n 3 "$tmp/err")" ;;
esac
grep -qF "# base: history last:1 (1 run of $class)" "$tmp/out" || soft_fail "ci-gate with an anchor: no rolling base"
no_password "ci-gate with an anchor"
grep -qF "# base: history first:1 (1 run of $class)" "$tmp/out" || soft_fail "ci-gate with an anchor: no anchor base"
[ "$(grep -c '^verdict: ' "$tmp/out")" = 2 ] || soft_fail "ci-gate with an anchor: $(grep -c '^verdict: ' "$tmp/out") verdicts, want 2"
[ "$(q 'SELECT gate FROM runs WHERE id = 4')" = "$want" ] || soft_fail "run 4's verdict: '$(q 'SELECT gate FROM runs WHERE id = 4')', the gate said '$want'"
# an anchor the history cannot give is exit 2 before any run
"$gate" --baseline-history last:1 --anchor-history first:9 "${quick[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "'first:9' needs 9 runs" "$tmp/err" ||
	soft_fail "anchor first:9 of 4 runs: exit $rc: $(cat "$tmp/err")"
no_password "ci-gate with an anchor it cannot have"
[ "$(q 'SELECT count(*) FROM runs')" = 4 ] || soft_fail "the refused gate recorded a run"
echo "$fails failures"
finish
