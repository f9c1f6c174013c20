#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pg.sh's promise when a test is SIGKILLed (no EXIT trap runs): its
# PostgreSQL server and every process of it are gone within 10 s, and the
# next pg_start removes the folder the killed test left, but never the
# folder of a test still running.
# Usage: pg_killed.sh   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$TEST_TMP
# servers' folders of their own: the other PostgreSQL tests running beside
# this one sweep /tmp, and would take the killed test's folder before we look
export KNOTIF_PG_ROOT=$tmp/root
mkdir "$KNOTIF_PG_ROOT" && chmod 711 "$tmp" "$KNOTIF_PG_ROOT" || exit 1
. "$here/pg.sh"
children=()
on_exit 'for p in "${children[@]}"; do kill -TERM "$p" 2>/dev/null; { wait "$p"; } 2>/dev/null; done
	pg_stop'

# a test that starts its server, says where, and waits (in the shell itself:
# no child of its own for the kill to orphan) until it is killed or told; as
# every test, it stops its server through testlib's on_exit (its TEST_TMP,
# which a SIGKILL leaves behind, in $tmp)
start_test() {	# NAME: its pid in children, "DIR SERVER_PID" in $tmp/NAME.out
	mkfifo "$tmp/$1.wait"
	TMPDIR=$tmp bash -c '. "$1/../../../scripts/tests/testlib.sh"; . "$1/pg.sh"; on_exit pg_stop
		pg_start >"$2.why" || exit 1
		echo "$pg_dir $pg_pid" >"$2.out"; read -r -t 100 _ <>"$2.wait"' _ "$here" "$tmp/$1" &
	children+=($!)
	for _ in $(seq 300); do
		[ -s "$tmp/$1.out" ] && return 0
		kill -0 "${children[-1]}" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

if ! start_test killed; then
	wait "${children[0]}"
	cat "$tmp/killed.why"; fail "the server of the test to be killed did not start"
fi
read -r dir server <"$tmp/killed.out"
server_procs=$(pgrep -P "$server" | tr '\n' ' ')
[ -n "$server_procs" ] || soft_fail "the server $server has no processes of its own to check"
kill -KILL "${children[0]}"
wait "${children[0]}" 2>/dev/null
left=''
for _ in $(seq 100); do	# 10 s
	left=''
	for p in $server $server_procs; do
		kill -0 "$p" 2>/dev/null && left+="$p "
	done
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || soft_fail "10 s after its test was killed, processes of its server are left: $left"
[ -d "$dir" ] || soft_fail "$dir went with the killed test: nothing for pg_start to sweep (the test proves nothing)"

start_test live || soft_fail "a second test's server did not start"
read -r live_dir _ <"$tmp/live.out"
pg_start || soft_fail "pg_start after the kill"
[ ! -e "$dir" ] || soft_fail "pg_start left $dir, the folder of the killed test"
[ -d "$live_dir" ] || soft_fail "pg_start removed $live_dir, the folder of a test still running"
echo go >"$tmp/live.wait"	# the live test ends through its on_exit
wait "${children[1]}"
[ ! -e "$live_dir" ] || soft_fail "the live test's on_exit left $live_dir"
children=()

[ "$fails" = 0 ] && echo "ok: a killed test's server gone, its folder swept, a live one kept"
finish
