#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Under another notification supervisor (here knotif-run itself), a task
# cannot get a listener of its own (EBUSY: one per filter chain). Each tool
# must say so, not blame the kernel version: knotif-run exits 1 with the
# reason, knotif-bench and knotif-stress report their unotif rows as
# "unsupported: <that reason>" and exit 0.
RUN=$1 PROBE=$2 BENCH=$3 STRESS=$4
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq is needed"
why="a seccomp listener already exists in this task's filter chain: running under another notification supervisor (knotif-run, a container's seccomp agent)? (probe: Device or resource busy)"

"$RUN" --quiet -- "$RUN" --quiet -- true 2>"$TMP/err"
expect_eq "nested knotif-run status" "$?" 1
expect_eq "nested knotif-run message" "$(cat "$TMP/err")" "knotif-run: unsupported: $why"

"$RUN" --quiet -- "$BENCH" --benchmark_filter='^(unotif/sync/emulate|pingpong/pipe)/placement:same$' \
	--placement=same --samples=200 --benchmark_format=json >"$TMP/bench.json" 2>"$TMP/err"
expect_eq "knotif-bench status" "$?" 0
expect_eq "knotif-bench unotif row" \
	"$(jq -r '.benchmarks[] | select(.name == "unotif/sync/emulate/placement:same") | .error_message' "$TMP/bench.json")" \
	"unsupported: $why"
expect_eq "knotif-bench floor still runs" \
	"$(jq -c '[.benchmarks[] | select(.run_name == "pingpong/pipe/placement:same") | .error_occurred // false] | unique' "$TMP/bench.json")" \
	'[false]'

"$RUN" --quiet -- "$STRESS" --targets=2 --requests=10 --benchmark_format=json >"$TMP/stress.json" 2>"$TMP/err"
expect_eq "knotif-stress status" "$?" 0
expect_eq "knotif-stress row" "$(jq -r '.benchmarks[0].error_message' "$TMP/stress.json")" "unsupported: $why"

# Google Benchmark's compare.py reads unsupported rows (it needs their real_time & co.)
compare=/usr/share/benchmark/compare.py
if [ -r "$compare" ] && /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
	for f in bench stress; do
		/usr/bin/python3 "$compare" --no-color benchmarks "$TMP/$f.json" "$TMP/$f.json" >"$TMP/cmp" 2>&1 ||
			fail "compare.py on knotif-$f's unsupported rows: $(tail -3 "$TMP/cmp")"
	done
fi
echo PASS
