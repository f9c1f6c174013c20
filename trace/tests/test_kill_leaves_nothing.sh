#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Killed outright (SIGKILL: no handler runs), nothing of ours stays behind:
#   knotif-bench --trace: the knotif-trace it runs beside itself;
#   knotif-trace -- COMMAND: COMMAND (and so what it runs).
set -u
. "$(dirname "$0")/../../scripts/tests/testlib.sh"
: "${KNOTIF_BENCH:?run through ctest}" "${KNOTIF_TRACE:?run through ctest}"
[ "$(id -u)" = 0 ] || skip "needs root (knotif-trace loads BPF programs)"
"$KNOTIF_TRACE" -q -d 0.1 >/dev/null 2>&1 || skip "knotif-trace cannot trace here"

# outlived PARENT CHILD_NAME WHAT: PARENT is already running in the background.
# Waits (20 s) for PARENT's child CHILD_NAME, kills PARENT with SIGKILL and
# fails when that child is still there 10 s later.
outlived() {
	local parent=$1 name=$2 what=$3 child=
	for _ in $(seq 200); do	# the tracer attaches first: seconds under load
		child=$(pgrep -P "$parent" -x "$name")
		[ -n "$child" ] && break
		sleep 0.1
	done
	[ -n "$child" ] || { kill -KILL "$parent"; fail "$what: no $name started"; }
	sleep 0.5
	kill -KILL "$parent"
	wait "$parent" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$child" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$child" 2>/dev/null; then
		kill -KILL "$child"
		fail "$what: its $name ($child) outlived it by 10 s"
	fi
	echo "ok: a SIGKILLed $what leaves no $name behind"
}

"$KNOTIF_BENCH" --trace --benchmark_filter='^unotif/sync/emulate/placement:same$' --samples=5000000 \
	>/dev/null 2>&1 &
outlived $! knotif-trace "knotif-bench --trace"

"$KNOTIF_TRACE" -q -- sleep 600 >/dev/null 2>&1 &
outlived $! sleep "knotif-trace -- COMMAND"
