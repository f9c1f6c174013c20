#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Signals sent to knotif-run alone (kill, a CI job's timeout) end the run,
# and nothing of the command is left (run_probe reaper, above knotif-run,
# is handed whatever it leaves behind: it must be nothing):
#  - SIGTERM after the main process has exited reaches its child (not the
#    dead main process); knotif-run ends with the main process's status;
#  - a child that ignores SIGTERM is killed after the grace period;
#  - a main process that blocks SIGTERM and SIGHUP and ignores SIGINT, with
#    a child that does the same, sent SIGTERM twice and SIGHUP: the grace
#    starts at the first of them, so knotif-run ends with 128+9 then, not
#    when they would have ended on their own (60 s).
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"

# start CMD...: knotif-run --quiet -- CMD (marked) under the reaper, in the
# background; sets reaper and run (knotif-run's pid)
start() {
	rm -f "$TMP/left" "$TMP/left.pid" "$TMP/ready"
	"$PROBE" reaper "$TMP/left" "$RUN" --quiet -- env KNOTIF_RUN_MARK="$MARK" "$@" &
	reaper=$!
	started "$reaper"
	wait_for "knotif-run's start" test -s "$TMP/left.pid"
	run=$(cat "$TMP/left.pid")
}

# send SIG...: each to knotif-run alone, then wait for its end (30 s at most:
# the 5 s grace with room for a slow machine); sets rc and took (seconds)
send() {
	local t0 sig
	t0=$(date +%s%N)
	for sig; do
		kill -"$sig" "$run"
	done
	exited_within 30 "$reaper" || fail "knotif-run still ran 30 s after SIG$1"
	wait "$reaper"
	rc=$?
	took=$((($(date +%s%N) - t0) / 1000000000))
	expect_eq "processes knotif-run left behind" "$(cat "$TMP/left")" 0
	expect_eq "marked processes left" "$(marked | wc -l)" 0
}

# the child tells us once the main process is gone ($$ in a subshell is the main process)
start sh -c '(while kill -0 $$ 2>/dev/null; do sleep 0.01; done; : >"$0"; exec sleep 60) & exit 3' "$TMP/ready"
wait_for "the main process's exit" test -e "$TMP/ready"
record_marked
send TERM
expect_eq "exit status after TERM (main exited 3)" "$rc" 3
# under the 5 s grace: the child ended on the TERM itself, not on the grace's SIGKILL
[ "$took" -lt 5 ] || fail "a child that takes SIGTERM kept knotif-run for $took s"

# a child that ignores SIGTERM (ignored signals survive exec): SIGKILL after the grace
start sh -c '(trap "" TERM; while kill -0 $$ 2>/dev/null; do sleep 0.01; done; : >"$0"; exec sleep 60) & exit 4' \
	"$TMP/ready"
wait_for "the main process's exit" test -e "$TMP/ready"
record_marked
send TERM
expect_eq "exit status after TERM with a stubborn child" "$rc" 4
[ "$took" -ge 4 ] || fail "the stubborn child was killed after $took s, before its grace"

# the main process itself blocks SIGTERM and SIGHUP and ignores SIGINT, and so does its child
start sh -c 'trap "" INT; "$0" stubborn 60 "$1" & exec "$0" stubborn 60 "$1"' "$PROBE" "$TMP/ready"
wait_for "both stubborn processes" lines "$TMP/ready" 2
record_marked
send TERM TERM HUP
expect_eq "exit status of a main process SIGKILLed after the grace" "$rc" 137
echo PASS
