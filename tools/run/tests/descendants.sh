#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every descendant inherits the filter: knotif-run keeps serving after the
# command's main process exits, until the last of them is gone, and logs
# what they do. Here a grandchild opens its files only after the main process
# has exited.
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"

N=5
mkdir "$TMP/files"
"$RUN" --summary --syscalls=openat --log="$TMP/log.txt" -- "$PROBE" orphan-open "$TMP/files" $N
expect_eq "status" $? 0
expect_eq "files the grandchild created" "$(ls "$TMP/files" | wc -l)" $N
expect_eq "summary openat" "$(awk '$1 == "openat" { print $2 }' "$TMP/log.txt")" $N
pids=$(sed -n 's/^\[pid \([0-9]*\)\] openat.*/\1/p' "$TMP/log.txt" | sort -u | wc -l)
expect_eq "one grandchild pid in the log" "$pids" 1
echo PASS
