#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The output formats: console table, JSON file beside it, CSV, raw samples, test listing.
. "$(dirname "$0")/lib.sh"
filter='^(unotif/sync/emulate|pingpong/pipe)/placement:same$'

"$KNOTIF_BENCH" --benchmark_list_tests --benchmark_filter=^unotif/ --placement=same >"$tmp/list" ||
	fail "list_tests exited $?"
[ "$(wc -l <"$tmp/list")" = 8 ] || fail "8 unotif variants expected, listed: $(cat "$tmp/list")"
grep -qx 'unotif/sync/addfd/placement:same' "$tmp/list" || fail "name scheme: $(cat "$tmp/list")"
# the default suite: every method of the registry at same, then at cross
"$KNOTIF_BENCH" --benchmark_list_tests --placement=same >"$tmp/same" || fail "list_tests exited $?"
"$KNOTIF_BENCH" --benchmark_list_tests >"$tmp/default" || fail "list_tests exited $?"
diff <(cat "$tmp/same"; sed 's/placement:same$/placement:cross/' "$tmp/same") "$tmp/default" >/dev/null ||
	fail "default suite is not every method at same and cross: $(cat "$tmp/default")"

# an older, longer file there is replaced whole (the file is opened before the run, not truncated then)
head -c 200000 /dev/zero | tr '\0' x >"$tmp/run.json"
"$KNOTIF_BENCH" --samples=300 --benchmark_repetitions=3 --benchmark_filter="$filter" --placement=same \
	--benchmark_out="$tmp/run.json" --samples_out="$tmp/samples.csv" >"$tmp/console" 2>"$tmp/err" ||
	fail "console run exited $?: $(cat "$tmp/err")"
"$CHECK_JSON" "$tmp/run.json" --ok unotif/sync/emulate/placement:same --ok pingpong/pipe/placement:same ||
	fail "--benchmark_out JSON is invalid"
grep -q '^Benchmark .*p50 µs.*×floor' "$tmp/console" || fail "console header: $(head -3 "$tmp/console")"
grep -q '^unotif/sync/emulate/placement:same  ' "$tmp/console" || fail "console row missing"
grep -q '^# floor at placement:same = pingpong/' "$tmp/console" || fail "console floor line missing"
# every sample of every repetition, in order, plus the header
[ "$(wc -l <"$tmp/samples.csv")" = $((2 * 3 * 300 + 1)) ] ||
	fail "samples_out has $(wc -l <"$tmp/samples.csv") lines, want $((2 * 3 * 300 + 1))"
head -1 "$tmp/samples.csv" | grep -qx 'name,repetition,index,ns' || fail "samples_out header"

"$KNOTIF_BENCH" --samples=200 --benchmark_repetitions=2 --benchmark_filter="$filter" --placement=same \
	--benchmark_format=csv >"$tmp/run.csv" 2>"$tmp/err" || fail "csv run exited $?"
head -1 "$tmp/run.csv" | grep -q '^name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,error_occurred,error_message,' ||
	fail "CSV header is not Google Benchmark's: $(head -1 "$tmp/run.csv")"
# 2 benchmarks x (2 iterations + 4 aggregates) + header
[ "$(wc -l <"$tmp/run.csv")" = 13 ] || fail "CSV has $(wc -l <"$tmp/run.csv") lines, want 13"
grep -q '^"unotif/sync/emulate/placement:same_median",' "$tmp/run.csv" || fail "CSV median row missing"
# BMF (Bencher Metric Format), from the same run as a JSON: every row measured, none that
# failed (an unsupported method has no figure), value = the median aggregate's p50, and the
# bounds the smallest and largest repetition's
"$KNOTIF_BENCH" --samples=200 --benchmark_repetitions=3 --placement=same \
	--benchmark_filter='^(unotif/sync/emulate|unotif/rw/emulate|pingpong/pipe)/placement:same$' \
	--benchmark_format=json --benchmark_out="$tmp/run.bmf" --benchmark_out_format=bmf \
	>"$tmp/bmf.json" 2>"$tmp/err" || fail "bmf run exited $?: $(cat "$tmp/err")"
python3 - "$tmp/bmf.json" "$tmp/run.bmf" <<'PY' || fail "BMF does not carry the run"
import json, sys
gb, bmf = (json.load(open(f)) for f in sys.argv[1:])
rows = gb["benchmarks"]
ok = {r["run_name"] for r in rows if r.get("run_type") == "iteration" and not r.get("error_occurred")}
failed = {r["name"] for r in rows if r.get("error_occurred")}
assert set(bmf) == ok, (sorted(bmf), sorted(ok))
assert not failed & set(bmf), failed
for name, measures in bmf.items():
    reps = [r for r in rows if r.get("run_name") == name and r.get("run_type") == "iteration"]
    median = next(r for r in rows if r["name"] == name + "_median")
    for key, gb_key in (("latency", "p50"), ("floor_ratio", "floor_ratio")):
        m = measures[key]
        assert set(m) == {"value", "lower_value", "upper_value"}, m
        assert abs(m["value"] - median[gb_key]) <= 1e-9 * abs(median[gb_key]), (name, key, m, median[gb_key])
        assert m["lower_value"] == min(r[gb_key] for r in reps), (name, key)
        assert m["upper_value"] == max(r[gb_key] for r in reps), (name, key)
PY
echo "ok: console, JSON, CSV, BMF, samples and listing agree"
