#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 8 knotif-history record at once into a new, empty store, several rounds:
# every one exits 0, every run is stored whole (runs and their results rows)
# with 8 distinct ids (PostgreSQL may skip ids: an identity is not rolled
# back with a retried transaction). Creating the schema races here (issue 14: "table meta
# already exists", runs lost in 23 of 30 rounds), and so do the writers.
# Usage: concurrent.sh sqlite|postgresql KNOTIF_HISTORY RUN.json   Exit 0/1/77.
set -uo pipefail
backend=$1 hist=$2 a=$3
writers=8 rounds=4
. "$(dirname "$0")/store.sh"	# its EXIT trap: no writer outlives the test
rows=$(jq '[.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not))] | length' "$a")

for round in $(seq "$rounds"); do
	store "round$round"
	pids=()
	for w in $(seq "$writers"); do
		"$hist" record "$a" --db "$db" >"$tmp/out$w" 2>"$tmp/err$w" &
		pids+=($!)
	done
	for w in $(seq "$writers"); do
		wait "${pids[w - 1]}"
		rc=$?
		[ "$rc" = 0 ] || { echo "FAIL: round $round writer $w: exit $rc: $(cat "$tmp/err$w")"; fails=$((fails + 1)); }
	done
	pids=()
	got="$(q 'SELECT count(DISTINCT id) FROM runs') $(q 'SELECT count(*) FROM results')"
	got+=" $(q "SELECT count(*) FROM runs WHERE (SELECT count(*) FROM results WHERE run_id = runs.id) = $rows")"
	want="$writers $((writers * rows)) $writers"
	[ "$got" = "$want" ] || { echo "FAIL: round $round: runs, results rows, whole runs: got '$got', expected '$want'"; fails=$((fails + 1)); }
done
echo "$rounds rounds of $writers concurrent writers into a new $backend store: $fails failures"
[ "$fails" = 0 ]
