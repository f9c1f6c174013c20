#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The PostgreSQL server goes away in the middle of an import: knotif-history
# exits 1 with one line that says so, and after the server comes back the
# run is not there at all (no runs row without its results). "The middle" is
# made exact: another session holds a lock on `results`, so the importer has
# inserted its runs row and waits inside its transaction when the server
# stops (immediate shutdown: every backend quits at once).
# Usage: server_gone.sh KNOTIF_HISTORY RUN.json   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
hist=$1 a=$2
here=$(dirname "$0")
need jq
tmp=$TEST_TMP
. "$here/pg.sh"
pids=()
on_exit 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p"; done; pg_stop'
pg_start || exit 1
db=$(pg_newdb h) || exit 1

"$hist" record "$a" --db "$db" >/dev/null || soft_fail "first record"
# runs of their own (the same run twice is refused)
jq '.context.host_name = "importer"' "$a" >"$tmp/importer.json"
jq '.context.host_name = "after"' "$a" >"$tmp/after.json"
# the lock holder, then the importer that must wait for it
pg_lock_results h || soft_fail "the lock on results was never granted"
"$hist" record "$tmp/importer.json" --db "$db" >"$tmp/out" 2>"$tmp/err" &
importer=$!
pids+=($importer)
[ -n "$(pg_waiting_importer h)" ] || soft_fail "the importer never waited for the lock on results"
pg_crash
wait "$importer"
rc=$?
[ "$rc" = 1 ] || soft_fail "importer: exit $rc, expected 1"
[ "$(wc -l <"$tmp/err")" = 1 ] || soft_fail "importer: $(wc -l <"$tmp/err") lines on stderr, expected 1"
grep -q '^knotif-history: lost the connection to the PostgreSQL server postgresql:///h' "$tmp/err" ||
	soft_fail "importer: message: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || soft_fail "importer reported success: $(cat "$tmp/out")"
cat "$tmp/err"

pg_launch || exit 1
got="$(pg_sql h 'SELECT count(*) FROM runs') $(pg_sql h 'SELECT count(DISTINCT run_id) FROM results')"
[ "$got" = "1 1" ] || soft_fail "after the server came back: runs, runs with results: got '$got', expected '1 1'"
"$hist" record "$tmp/after.json" --db "$db" >/dev/null || soft_fail "record after the restart"
[ "$(pg_sql h 'SELECT count(*) FROM runs')" = 2 ] || soft_fail "record after the restart: not stored"
echo "$fails failures"
finish
