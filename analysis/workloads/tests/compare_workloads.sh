#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare-workloads end to end on its cheapest workload: hyperfine really
# runs every method, the merged JSON keeps hyperfine's schema with our tags,
# knotif-run's call count is exact (sh + 200 execs of /bin/true), the
# markdown has a row per method, and bad flags exit 2 with one line.
# usage: compare_workloads.sh KNOTIF_RUN
set -u
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
RUN=$1
CW=$(dirname "$0")/../compare-workloads
TMP=$(mktemp -d /tmp/knotif-workloads-test.XXXXXX)
on_exit 'rm -rf "$TMP"'

for tool in hyperfine strace taskset jq; do
	need $tool
done
if ! "$RUN" --quiet -- true 2>"$TMP/err"; then
	grep -q 'unsupported:' "$TMP/err" && skip "$(cat "$TMP/err")"
	fail "knotif-run -- true: $(cat "$TMP/err")"
fi

"$CW" --knotif-run="$RUN" --workload=exec-loop --placement=same --runs=4 --rounds=2 --warmup=0 \
	--out="$TMP" >"$TMP/out" 2>&1 || fail "compare-workloads exited $?: $(tail -3 "$TMP/out")"
J=$TMP/hyperfine.json
[ "$(jq -r '[.results[].method] | join(",")' "$J")" = \
	"none,knotif-run --quiet,knotif-run --log=/dev/null,strace --seccomp-bpf,strace" ] ||
	fail "methods: $(jq -c '[.results[].method]' "$J")"
[ "$(jq '[.results[] | (.times | length)] | unique' -c "$J")" = "[4]" ] || fail "not 4 times per method"
[ "$(jq '[.results[] | .exit_codes[]] | unique' -c "$J")" = "[0]" ] || fail "a run failed"
[ "$(jq '[.results[] | .rounds] | unique' -c "$J")" = "[2]" ] || fail "rounds not recorded"
[ "$(jq '.results[0].intercepted.execve' "$J")" = 201 ] ||
	fail "execve calls: $(jq -c '.results[0].intercepted' "$J"), expected 201"
jq -e '.results[] | select(.mean > 0 and .stddev >= 0 and .min <= .median and .median <= .max)' "$J" >/dev/null ||
	fail "statistics out of order"
[ "$(grep -c '^| \(none\|knotif-run\|strace\)' "$TMP/overhead.md")" = 5 ] || fail "overhead.md rows"
calls=$(jq '.results[0].intercepted | add' "$J")
grep -q "^| exec-loop | same | $calls | [0-9.]* ± [0-9.]* |" "$TMP/headline.md" ||
	fail "headline.md lacks exec-loop with $calls calls: $(cat "$TMP/headline.md")"

# --render-only rewrites the markdown from the JSON alone
rm "$TMP/overhead.md"
"$CW" --render-only --out="$TMP" >/dev/null || fail "--render-only exited $?"
[ -s "$TMP/overhead.md" ] || fail "--render-only wrote no overhead.md"

for bad in --placement=cross --runs=1 --bogus; do
	"$CW" "$bad" --out="$TMP/x" 2>"$TMP/err" >/dev/null
	rc=$?
	[ $rc = 2 ] || fail "$bad: exit $rc, expected 2"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$bad: stderr $(cat "$TMP/err")"
done
# a result that is not one, and an --out that is not a folder: one line, exit 2, no traceback
mkdir "$TMP/list" && echo '[1, 2]' >"$TMP/list/hyperfine.json"
for bad in "--render-only --out=$TMP/list" "--out=/etc/passwd" "--out=/proc/knotif-no/x"; do
	"$CW" $bad 2>"$TMP/err" >/dev/null
	rc=$?
	[ $rc = 2 ] || fail "$bad: exit $rc, expected 2: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$bad: stderr $(cat "$TMP/err")"
	grep -q '^compare-workloads: ' "$TMP/err" || fail "$bad: $(cat "$TMP/err")"
done
echo PASS
