#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knotif-run reaps the whole tree before it exits, its last tasks included.
# A task lets go of the filter early in do_exit(), so the listener reports
# POLLHUP while some are not zombies yet; a knotif-run that stopped at its
# main process handed them to init (about 3 runs in 10 of this command).
# run_probe reaper, above knotif-run, is handed anything it leaves behind
# and counts it: in every run, nothing.
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"

for run in $(seq 20); do
	"$PROBE" reaper "$TMP/left" "$RUN" --quiet -- \
		sh -c 'for i in $(seq 300); do (sh -c "exit 0" &); done; exit 4'
	expect_eq "run $run: status" "$?" 4
	expect_eq "run $run: processes knotif-run left behind" "$(cat "$TMP/left")" 0
done
echo PASS
