#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A log knotif-run cannot write (a full device, a reader that went away)
# ends the run as the README says: the command (and every process of it)
# is killed, knotif-run exits 1 and names the write error; it does not die
# of SIGPIPE (141) leaving the command to fail every watched call with ENOSYS.
RUN=$1
. "$(dirname "$0")/lib.sh"
mark=42.$$

"$RUN" --log=/dev/full -- sh -c "sleep $mark & cat /etc/hostname; wait" >/dev/null 2>"$TMP/err"
expect_eq "exit status, --log=/dev/full" "$?" 1
expect_eq "message, --log=/dev/full" "$(cat "$TMP/err")" \
	"knotif-run: writing the log to /dev/full: No space left on device; the command was killed"
sleep 0.2
! pgrep -fx "sleep $mark" >/dev/null || { kill -KILL $(pgrep -fx "sleep $mark") 2>/dev/null; fail "/dev/full: the command's child was left"; }

# the log's reader reads one byte and leaves
mkfifo "$TMP/log"
head -c 1 "$TMP/log" >/dev/null &
"$RUN" --log="$TMP/log" -- sh -c "sleep $mark & while :; do cat /etc/hostname; done" >/dev/null 2>"$TMP/err"
expect_eq "exit status, reader gone" "$?" 1
expect_eq "message, reader gone" "$(cat "$TMP/err")" \
	"knotif-run: writing the log to $TMP/log: Broken pipe; the command was killed"
sleep 0.2
! pgrep -fx "sleep $mark" >/dev/null || { kill -KILL $(pgrep -fx "sleep $mark") 2>/dev/null; fail "reader gone: the command's child was left"; }
echo PASS
