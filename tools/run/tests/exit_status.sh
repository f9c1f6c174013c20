#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knotif-run exits with the command's status: its code, or 128+signal.
RUN=$1
. "$(dirname "$0")/lib.sh"

status_of() {
	"$RUN" --quiet -- "$@"
	echo $?
}

expect_eq "true" "$(status_of true)" 0
expect_eq "exit 7" "$(status_of sh -c 'exit 7')" 7
expect_eq "exit 255" "$(status_of sh -c 'exit 255')" 255
expect_eq "SIGKILL" "$(status_of sh -c 'kill -KILL $$')" 137
expect_eq "SIGTERM" "$(status_of sh -c 'kill -TERM $$')" 143

# a signal sent to knotif-run alone is passed on to the command
"$RUN" --quiet -- sleep 30 &
pid=$!
# wait until the command runs (knotif-run has a child), then signal knotif-run only
for _ in $(seq 100); do
	pgrep -P "$pid" >/dev/null && break
	sleep 0.05
done
kill -TERM "$pid"
wait "$pid"
expect_eq "SIGTERM forwarded" "$?" 143
echo PASS
