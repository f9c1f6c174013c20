#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# SIGTERM to knotif-run after the command's main process has exited while
# its children run on: the signal reaches those children (not the dead main
# process) and knotif-run ends with the main process's status; a child that
# ignores the signal is killed after the grace period. No process is left.
RUN=$1
. "$(dirname "$0")/lib.sh"
mark=40.$$	# a sleep only this test runs

# RUN_ARGS...: start knotif-run, wait for the orphan, TERM it; sets rc and took (seconds)
term_after_main_exit() {
	"$RUN" --quiet -- "$@" &
	local pid=$! t0
	for _ in $(seq 100); do
		pgrep -fx "sleep $mark" >/dev/null && ! pgrep -x -P "$pid" sh >/dev/null && break
		sleep 0.05
	done
	pgrep -fx "sleep $mark" >/dev/null || fail "the orphan never started"
	t0=$(date +%s%N)
	kill -TERM "$pid"
	for _ in $(seq 200); do	# 20 s: far beyond the 5 s grace
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL $(pgrep -fx "sleep $mark") 2>/dev/null
		wait "$pid"
		fail "knotif-run $* still waited 20 s after SIGTERM"
	fi
	wait "$pid"
	rc=$?
	took=$(( ($(date +%s%N) - t0) / 1000000000 ))
	! pgrep -fx "sleep $mark" >/dev/null || { kill -KILL $(pgrep -fx "sleep $mark") 2>/dev/null; fail "$*: the orphan outlived knotif-run"; }
}

term_after_main_exit sh -c "sleep $mark & exit 3"
expect_eq "exit status after TERM (main exited 3)" "$rc" 3
[ "$took" -lt 3 ] || fail "an orphan that takes SIGTERM kept knotif-run for $took s"

# an orphan that ignores SIGTERM (ignored signals survive exec): SIGKILL after the grace
term_after_main_exit sh -c "(trap '' TERM; exec sleep $mark) & exit 4"
expect_eq "exit status after TERM with a stubborn orphan" "$rc" 4
[ "$took" -ge 4 ] || fail "the stubborn orphan was killed after $took s, before its grace"
echo PASS
