#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 8 knotif-history record at once into a new, empty store, several rounds:
# every one exits 0, every run is stored whole (runs and their results rows)
# with 8 distinct ids (PostgreSQL may skip ids: an identity is not rolled
# back with a retried transaction). Creating the schema races here (issue 14: "table meta
# already exists", runs lost in 23 of 30 rounds), and so do the writers.
# A last round, 8 writers of one and the same run: it is stored once, the
# other 7 are told it is already there (exit 2).
# Usage: concurrent.sh sqlite|postgresql KNOTIF_HISTORY RUN.json   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
backend=$1 hist=$2 a=$3
writers=8 rounds=4
. "$(dirname "$0")/store.sh"	# its on_exit: no writer outlives the test
rows=$(jq '[.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not))] | length' "$a")
# one run per writer (the same run twice is refused)
for w in $(seq "$writers"); do
	jq --arg h "writer-$w" '.context.host_name = $h' "$a" >"$tmp/run$w.json"
done

for round in $(seq "$rounds"); do
	store "round$round"
	pids=()
	for w in $(seq "$writers"); do
		"$hist" record "$tmp/run$w.json" --db "$db" >"$tmp/out$w" 2>"$tmp/err$w" &
		pids+=($!)
	done
	for w in $(seq "$writers"); do
		wait "${pids[w - 1]}"
		rc=$?
		[ "$rc" = 0 ] || soft_fail "round $round writer $w: exit $rc: $(cat "$tmp/err$w")"
	done
	pids=()
	got="$(q 'SELECT count(DISTINCT id) FROM runs') $(q 'SELECT count(*) FROM results')"
	got+=" $(q "SELECT count(*) FROM runs WHERE (SELECT count(*) FROM results WHERE run_id = runs.id) = $rows")"
	want="$writers $((writers * rows)) $writers"
	[ "$got" = "$want" ] || soft_fail "round $round: runs, results rows, whole runs: got '$got', expected '$want'"
done

store same
pids=()
for w in $(seq "$writers"); do
	"$hist" record "$a" --db "$db" >"$tmp/out$w" 2>"$tmp/err$w" &
	pids+=($!)
done
stored=0 refused=0
for w in $(seq "$writers"); do
	wait "${pids[w - 1]}"
	rc=$?
	if [ "$rc" = 0 ]; then
		stored=$((stored + 1))
	elif [ "$rc" = 2 ] && grep -q 'is already recorded, as run #' "$tmp/err$w" && [ "$(wc -l <"$tmp/err$w")" = 1 ]; then
		refused=$((refused + 1))
	else
		soft_fail "one run, writer $w: exit $rc: $(cat "$tmp/err$w")"
	fi
done
pids=()
got="$stored $refused $(q 'SELECT count(*) FROM runs') $(q 'SELECT count(*) FROM results')"
want="1 $((writers - 1)) 1 $rows"
[ "$got" = "$want" ] || soft_fail "one run by $writers writers: stored, refused, runs, results rows: got '$got', expected '$want'"
echo "$rounds rounds of $writers concurrent writers into a new $backend store, and one of $writers writers of one run: $fails failures"
finish
