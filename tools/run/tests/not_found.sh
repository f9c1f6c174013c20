#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A command that is not found exits 127 with one line; one that cannot be
# executed exits 126. With logging on, the failed execve attempts are logged.
RUN=$1
. "$(dirname "$0")/lib.sh"

"$RUN" --quiet -- knotif-no-such-command 2>"$TMP/err"
expect_eq "status" $? 127
expect_eq "stderr" "$(cat "$TMP/err")" "knotif-run: knotif-no-such-command: command not found"

PATH=/usr/bin:/bin "$RUN" --syscalls=execve -- knotif-no-such-command 2>"$TMP/err"
expect_eq "status (logged)" $? 127
expect_eq "execve attempts logged" "$(grep -c '^\[pid [0-9]*\] execve("/\(usr/\)\?bin/knotif-no-such-command"' "$TMP/err")" 2
expect_eq "last line" "$(tail -n 1 "$TMP/err")" "knotif-run: knotif-no-such-command: command not found"

printf 'not a program\n' >"$TMP/plain"
chmod 0644 "$TMP/plain"
"$RUN" --quiet -- "$TMP/plain" 2>"$TMP/err"
expect_eq "not executable" $? 126
expect_eq "stderr (126)" "$(cat "$TMP/err")" "knotif-run: $TMP/plain: Permission denied"
echo PASS
