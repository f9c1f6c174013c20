#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A writer killed (SIGKILL) at a random moment of an import leaves no
# half-written run: whatever the store holds afterwards is whole runs only
# (a runs row has all its results rows), and the next writer works. The run
# is large (900 results rows) so most kills land inside the transaction;
# the delays spread over one measured import.
# Usage: killed.sh sqlite|postgresql KNOTIF_HISTORY RUN.json   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
backend=$1 hist=$2 a=$3
kills=6
. "$(dirname "$0")/store.sh"
store killed

# 20 copies of every benchmark, renamed: 100 benchmarks x 9 repetitions
jq '.benchmarks = [range(20) as $i | .benchmarks[] | .name = "copy\($i)/" + .name | .run_name = .name]' "$a" >"$tmp/big.json"
rows=$(jq '[.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not))] | length' "$tmp/big.json")
start=$(date +%s%N)
"$hist" record "$tmp/big.json" --db "$db" >/dev/null || soft_fail "the first import"
ms=$(( ($(date +%s%N) - start) / 1000000 ))

killed=0
for i in $(seq "$kills"); do
	# a run of its own each time: the same run twice is refused
	jq --arg h "killed-$i" '.context.host_name = $h' "$tmp/big.json" >"$tmp/big$i.json"
	"$hist" record "$tmp/big$i.json" --db "$db" >/dev/null 2>&1 &
	pids=($!)
	sleep "$(awk -v r="$RANDOM" -v ms="$ms" 'BEGIN { printf "%.3f", (r % 100) / 100 * ms / 1000 }')"
	kill -KILL "${pids[0]}" 2>/dev/null && killed=$((killed + 1))
	{ wait "${pids[0]}"; } 2>/dev/null	# no "Killed" job notice
	pids=()
done
jq '.context.host_name = "after"' "$tmp/big.json" >"$tmp/after.json"
"$hist" record "$tmp/after.json" --db "$db" >/dev/null || soft_fail "an import after the kills"
runs=$(q 'SELECT count(*) FROM runs')
whole=$(q "SELECT count(*) FROM runs WHERE (SELECT count(*) FROM results WHERE run_id = runs.id) = $rows")
orphans=$(q 'SELECT count(*) FROM results WHERE run_id NOT IN (SELECT id FROM runs)')
[ "$runs" = "$whole" ] || soft_fail "$((runs - whole)) of $runs runs are not whole"
[ "$orphans" = 0 ] || soft_fail "$orphans results rows without their run"
# the writers that finished stored their run; a killed one may have committed just before
[ "$runs" -ge $((2 + kills - killed)) ] && [ "$runs" -le $((2 + kills)) ] ||
	soft_fail "$runs runs stored: expected $((2 + kills - killed)) to $((2 + kills))"
echo "$backend: one import of $rows rows took $ms ms; $killed of $kills writers killed before they ended; $runs whole runs stored, $fails failures"
finish
