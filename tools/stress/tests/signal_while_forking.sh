#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A signal to knotif-stress while it is still forking its targets leaves no
# process behind: every run is killed (INT, TERM, KILL) at several moments of
# its setup, then no process carrying this test's tag may be alive.
# Targets once outlived a parent that died between fork() and PR_SET_PDEATHSIG
# and slept forever in the start barrier under init.
. "$(dirname "$0")/lib.sh"
tag=knotif-leak-test-$$-$RANDOM

tagged() {
	grep -lsz "^KNOTIF_LEAK_TAG=$tag\$" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3
}

runs=0
for sig in INT TERM KILL; do
	for delay in 0.02 0.05 0.1 0.2; do
		for topo in shared per-target; do
			# only the run carries the tag (not this script's own grep)
			KNOTIF_LEAK_TAG=$tag timeout -s $sig $delay "$KNOTIF_STRESS" --targets=400 --duration=5 \
				--timeout=60 --topology=$topo --strategy=epoll >/dev/null 2>&1
			runs=$((runs + 1))
		done
	done
done 2>/dev/null	# the shell's "Killed" notices
# a SIGKILL'd parent's children get theirs at once: allow for a loaded machine
for _ in $(seq 50); do
	left=$(tagged | wc -l)
	[ "$left" = 0 ] && break
	sleep 0.1
done
if [ "$left" != 0 ]; then
	tagged | xargs -r kill -KILL
	fail "$left processes outlived $runs signalled runs of knotif-stress"
fi
echo "ok: $runs runs signalled while forking, no process left behind"
