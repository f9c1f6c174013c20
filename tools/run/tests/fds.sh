#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The command gets the descriptors knotif-run was given and nothing of
# knotif-run's own (its socketpair, signalfd, pidfd, log file, listener):
# the same set as the same command run without knotif-run, under each way
# of logging.
RUN=$1
. "$(dirname "$0")/lib.sh"

fds() { ls -1 /proc/self/fd | sort -n | tr '\n' ' '; }
export -f fds
baseline=$(bash -c fds)
[ -n "$baseline" ] || fail "no descriptors listed"
expect_eq "--quiet" "$("$RUN" --quiet -- bash -c fds)" "$baseline"
expect_eq "--log=FILE" "$("$RUN" --log="$TMP/log" -- bash -c fds)" "$baseline"
expect_eq "--format=json --summary" "$("$RUN" --format=json --summary -- bash -c fds 2>/dev/null)" "$baseline"
expect_eq "log on stderr" "$("$RUN" -- bash -c fds 2>/dev/null)" "$baseline"
echo "ok: the command sees only what knotif-run was given: $baseline"
