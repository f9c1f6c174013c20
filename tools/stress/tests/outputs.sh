#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Output formats: repetitions give iteration rows plus GB aggregates, CSV has
# a row per JSON row, --benchmark_out writes the same file, the console table
# ends with the ledger, and Google Benchmark's compare.py reads the JSON.
. "$(dirname "$0")/lib.sh"
S=$KNOTIF_STRESS
"$S" --targets=2 --requests=30 --strategy=epoll,blocking --benchmark_repetitions=3 --benchmark_format=json \
	--benchmark_out="$tmp/a.json" >"$tmp/stdout.json" || fail "json run failed"
cmp -s <(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["benchmarks"]))' "$tmp/a.json") \
	<(echo 14) || fail "want 2 runs x (3 iterations + 4 aggregates) rows"
/usr/bin/python3 "$here/check_rows.py" "$tmp/a.json" \
	"r['run_type'] in ('iteration', 'aggregate')" \
	"r['run_type'] == 'aggregate' or r['replied'] == r['issued'] == 60" \
	"r['run_type'] == 'iteration' or r['aggregate_name'] in ('mean', 'median', 'stddev', 'cv')" \
	"r['run_type'] == 'iteration' or r['name'] == r['run_name'] + '_' + r['aggregate_name']" \
	"r.get('aggregate_name') != 'median' or r['replied'] == 60" || exit 1
"$S" --targets=2 --requests=30 --strategy=epoll,blocking --benchmark_format=csv >"$tmp/out.csv" || fail "csv run failed"
[ "$(wc -l <"$tmp/out.csv")" = 3 ] || fail "csv: want a header and 2 rows, got $(wc -l <"$tmp/out.csv") lines"
head -1 "$tmp/out.csv" | grep -q '^name,iterations,real_time,cpu_time,.*,items_per_second,.*,replied' || fail "csv header: $(head -1 "$tmp/out.csv")"
"$S" --targets=2 --requests=30 >"$tmp/console" || fail "console run failed"
grep -q '^Run  *notif/s  *p50 µs' "$tmp/console" || fail "console header missing"
grep -q '^# ledger stress/epoll/shared/targets:2/.*issued 60 = replied 60' "$tmp/console" || fail "console ledger line missing"
compare=/usr/share/benchmark/compare.py
if [ -r $compare ]; then
	"$S" --targets=2 --requests=30 --strategy=epoll,blocking --benchmark_repetitions=3 --benchmark_format=json >"$tmp/b.json"
	/usr/bin/python3 $compare benchmarks "$tmp/a.json" "$tmp/b.json" >"$tmp/compare" 2>&1 || fail "compare.py: $(tail -3 "$tmp/compare")"
	grep -q 'stress/epoll/shared/targets:2' "$tmp/compare" || fail "compare.py did not match rows: $(cat "$tmp/compare")"
fi
echo "ok: json, csv, console, --benchmark_out and compare.py agree"
