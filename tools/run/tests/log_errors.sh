#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A log knotif-run cannot write (a full device, a reader that went away)
# ends the run as the README says: the command (and every process of it)
# is killed and reaped, knotif-run exits 1 and names the write error; it
# does not die of SIGPIPE (141) leaving the command to fail every watched
# call with ENOSYS. run_probe reaper, above knotif-run, is handed whatever
# it leaves behind: it must be nothing.
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"
mark=42.$$

"$PROBE" reaper "$TMP/left" "$RUN" --log=/dev/full -- sh -c "sleep $mark & cat /etc/hostname; wait" \
	>/dev/null 2>"$TMP/err"
expect_eq "exit status, --log=/dev/full" "$?" 1
expect_eq "message, --log=/dev/full" "$(cat "$TMP/err")" \
	"knotif-run: writing the log to /dev/full: No space left on device; the command was killed"
expect_eq "processes left, --log=/dev/full" "$(cat "$TMP/left")" 0

# the log's reader reads one byte and leaves
mkfifo "$TMP/log"
head -c 1 "$TMP/log" >/dev/null &
started $!
"$PROBE" reaper "$TMP/left" "$RUN" --log="$TMP/log" -- sh -c "sleep $mark & while :; do cat /etc/hostname; done" \
	>/dev/null 2>"$TMP/err"
expect_eq "exit status, reader gone" "$?" 1
expect_eq "message, reader gone" "$(cat "$TMP/err")" \
	"knotif-run: writing the log to $TMP/log: Broken pipe; the command was killed"
expect_eq "processes left, reader gone" "$(cat "$TMP/left")" 0

# the log is the pipe to head -1: 8 shells under the main one, 4 sleeps
# each, and the main shell opening /dev/null until knotif-run stops it
cat >"$TMP/tree.sh" <<'EOF'
for i in 1 2 3 4 5 6 7 8; do
	sh -c 'for j in 1 2 3 4; do sleep 60 & done; wait' &
done
while :; do
	: </dev/null
done
EOF
"$PROBE" reaper "$TMP/left" "$RUN" --log=/dev/stdout -- env KNOTIF_RUN_MARK="$MARK" sh "$TMP/tree.sh" \
	2>"$TMP/err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
record_marked
expect_eq "exit status, log pipe closed" "$rc" 1
expect_eq "message, log pipe closed" "$(cat "$TMP/err")" \
	"knotif-run: writing the log to /dev/stdout: Broken pipe; the command was killed"
expect_eq "processes left, log pipe closed" "$(cat "$TMP/left")" 0
expect_eq "marked processes left, log pipe closed" "$(marked | wc -l)" 0
echo PASS
