#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pg.sh's promise when a test is SIGKILLed (no EXIT trap runs): its
# PostgreSQL server and every process of it are gone within 10 s, and the
# next pg_start removes the folder the killed test left, but never the
# folder of a test still running.
# Usage: pg_killed.sh   Exit 0/1/77.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
# servers' folders of their own: the other PostgreSQL tests running beside
# this one sweep /tmp, and would take the killed test's folder before we look
export KNOTIF_PG_ROOT=$tmp/root
mkdir "$KNOTIF_PG_ROOT" && chmod 711 "$tmp" "$KNOTIF_PG_ROOT" || exit 1
. "$here/pg.sh"
children=()
trap 'for p in "${children[@]}"; do kill -TERM "$p" 2>/dev/null; { wait "$p"; } 2>/dev/null; done
	pg_stop; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# a test that starts its server, says where, and waits (in the shell itself:
# no child of its own for the kill to orphan) until it is killed or told
start_test() {	# NAME: its pid in children, "DIR SERVER_PID" in $tmp/NAME.out
	mkfifo "$tmp/$1.wait"
	bash -c '. "$1/pg.sh"; trap pg_stop EXIT; pg_start >"$2.why" || exit 77
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
	[ $? = 77 ] && { cat "$tmp/killed.why"; exit 77; }
	cat "$tmp/killed.why"; echo "FAIL: the server of the test to be killed did not start"; exit 1
fi
read -r dir server <"$tmp/killed.out"
server_procs=$(pgrep -P "$server" | tr '\n' ' ')
[ -n "$server_procs" ] || fail "the server $server has no processes of its own to check"
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
[ -z "$left" ] || fail "10 s after its test was killed, processes of its server are left: $left"
[ -d "$dir" ] || fail "$dir went with the killed test: nothing for pg_start to sweep (the test proves nothing)"

start_test live || fail "a second test's server did not start"
read -r live_dir _ <"$tmp/live.out"
pg_start || fail "pg_start after the kill"
[ ! -e "$dir" ] || fail "pg_start left $dir, the folder of the killed test"
[ -d "$live_dir" ] || fail "pg_start removed $live_dir, the folder of a test still running"
echo go >"$tmp/live.wait"	# the live test ends through its EXIT trap
wait "${children[1]}"
[ ! -e "$live_dir" ] || fail "the live test's EXIT trap left $live_dir"
children=()

[ "$fails" = 0 ] && echo "ok: a killed test's server gone, its folder swept, a live one kept"
exit $((fails > 0))
