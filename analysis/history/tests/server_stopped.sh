#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The PostgreSQL server stops answering in the middle of an import (SIGSTOP:
# a hung host, a VM paused; the socket stays open, nothing is sent): with
# KNOTIF_DB_TIMEOUT=8 knotif-history exits 1 with one line within 8 s and
# some slack, where it used to wait for ever; a new connection to the
# stopped server gives up as soon. "The middle" is made exact as in
# server_gone.sh: another session holds a lock on `results`, so the importer
# waits inside its transaction when its backend and the postmaster are
# stopped. Once they go on, the run is not there. Only the processes this
# test started and recorded are signalled.
# Usage: server_stopped.sh KNOTIF_HISTORY RUN.json   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
hist=$1 a=$2
here=$(dirname "$0")
need jq
tmp=$TEST_TMP
. "$here/pg.sh"
pids=() stopped=()
on_exit 'for p in "${stopped[@]}"; do kill -CONT "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p"; done; pg_stop'
pg_start || exit 1
db=$(pg_newdb h) || exit 1
timeout=8 bound=25	# KNOTIF_DB_TIMEOUT, and what the test allows on a loaded machine

"$hist" record "$a" --db "$db" >/dev/null || soft_fail "first record"
jq '.context.host_name = "importer"' "$a" >"$tmp/importer.json"
jq '.context.host_name = "after"' "$a" >"$tmp/after.json"
# the lock holder, then the importer that must wait for it
pg_lock_results h || fail "the lock on results was never granted"
KNOTIF_DB_TIMEOUT=$timeout "$hist" record "$tmp/importer.json" --db "$db" >"$tmp/out" 2>"$tmp/err" &
importer=$!
pids+=($importer)
backend=$(pg_waiting_importer h)
[ -n "$backend" ] || fail "the importer never waited for the lock on results"

# the server stops: the postmaster and the importer's backend
stopped=("$pg_pid" "$backend")
kill -STOP "${stopped[@]}" || fail "cannot stop the server's processes ${stopped[*]}"
start=$SECONDS
while kill -0 "$importer" 2>/dev/null && [ $((SECONDS - start)) -lt "$bound" ]; do
	sleep 0.2
done
if kill -0 "$importer" 2>/dev/null; then
	soft_fail "the importer still waits for the stopped server after $bound s"
	kill -KILL "$importer"
fi
wait "$importer"
rc=$? took=$((SECONDS - start))
[ "$rc" = 1 ] || soft_fail "importer: exit $rc, expected 1"
[ "$(wc -l <"$tmp/err")" = 1 ] || soft_fail "importer: $(wc -l <"$tmp/err") lines on stderr, expected 1"
grep -q "^knotif-history: the PostgreSQL server postgresql:///h?.* did not answer within $timeout s" "$tmp/err" ||
	soft_fail "importer: message: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || soft_fail "importer reported success: $(cat "$tmp/out")"
echo "the importer gave up after ${took} s: $(cat "$tmp/err")"

# connecting to the stopped server gives up too
start=$SECONDS
KNOTIF_DB_TIMEOUT=3 timeout "$bound" "$hist" list --db "$db" >/dev/null 2>"$tmp/err"
rc=$? took=$((SECONDS - start))
[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] ||
	soft_fail "list on the stopped server: exit $rc after $took s (124: still waiting after $bound s): $(cat "$tmp/err")"

# the server goes on: the importer's transaction is rolled back, the next record works
kill -CONT "${stopped[@]}"
stopped=()
for _ in $(seq 100); do
	[ "$(pg_sql h "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'knotif-history'")" = 0 ] && break
	sleep 0.1
done
pg_sql h "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'h' AND pid <> pg_backend_pid()" >/dev/null
got="$(pg_sql h 'SELECT count(*) FROM runs') $(pg_sql h 'SELECT count(DISTINCT run_id) FROM results')"
[ "$got" = "1 1" ] || soft_fail "after the server went on: runs, runs with results: got '$got', expected '1 1'"
"$hist" record "$tmp/after.json" --db "$db" >/dev/null || soft_fail "record after the server went on"
[ "$(pg_sql h 'SELECT count(*) FROM runs')" = 2 ] || soft_fail "record after the server went on: not stored"
echo "$fails failures"
finish
