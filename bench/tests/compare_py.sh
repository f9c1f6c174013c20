#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Google Benchmark's own compare.py reads two knotif-bench files unmodified:
# the default suite's, with its "unsupported" rows (on a stock kernel the
# v3 methods; compare.py needs real_time & co. on those too), and a run with
# repetitions for its U test.
. "$(dirname "$0")/lib.sh"
compare=/usr/share/benchmark/compare.py
[ -f "$compare" ] || skip "$compare missing (Debian package libbenchmark-tools)"
/usr/bin/python3 -c 'import scipy' 2>/dev/null || skip "/usr/bin/python3 has no scipy (python3-scipy)"
filter='^(null|unotif/async/emulate|pingpong/pipe)/placement:same$'
for run in a b; do
	"$KNOTIF_BENCH" --samples=200 --benchmark_repetitions=3 --placement=same --benchmark_filter="$filter" \
		--benchmark_format=json >"$tmp/$run.json" 2>/dev/null || fail "bench run $run exited $?"
done
/usr/bin/python3 "$compare" --no-color benchmarks "$tmp/a.json" "$tmp/b.json" >"$tmp/out" 2>&1 ||
	fail "compare.py exited $?: $(tail -5 "$tmp/out")"
for name in null unotif/async/emulate pingpong/pipe; do
	grep -q "^$name/placement:same_median " "$tmp/out" || fail "compare.py did not compare $name: $(cat "$tmp/out")"
	grep -q "^$name/placement:same_pvalue " "$tmp/out" || fail "compare.py ran no U test for $name"
done
grep -q OVERALL_GEOMEAN "$tmp/out" || fail "compare.py gave no geomean"

# the default suite, whatever this kernel lacks
for run in c d; do
	"$KNOTIF_BENCH" --samples=200 --benchmark_format=json >"$tmp/$run.json" 2>/dev/null ||
		fail "default suite run $run exited $?"
done
/usr/bin/python3 "$compare" --no-color benchmarks "$tmp/c.json" "$tmp/d.json" >"$tmp/out" 2>&1 ||
	fail "compare.py on the default suite exited $?: $(tail -5 "$tmp/out")"
for name in $(jq -r '.benchmarks[].name' "$tmp/c.json"); do
	grep -q "^$name " "$tmp/out" || fail "compare.py left out $name: $(cat "$tmp/out")"
done
echo "ok: compare.py read the default suite ($(jq '[.benchmarks[] | select(.error_occurred)] | length' "$tmp/c.json") unsupported rows)"
echo "ok: compare.py compared every benchmark"
