#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A static program that opens exactly N files: knotif-run sees N openat calls,
# logs each path once, and its --summary says N (text and JSON lines).
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"

N=23
mkdir "$TMP/files"
"$RUN" --summary --log="$TMP/log.txt" -- "$PROBE" open "$TMP/files" $N ||
	fail "run_probe open exited $?"
expect_eq "openat lines for the files" "$(grep -c "^\[pid [0-9]*\] openat(AT_FDCWD, \"$TMP/files/f[0-9]*\", 0x80241, 0600)$" "$TMP/log.txt")" $N
expect_eq "openat lines in all" "$(grep -c '\] openat(' "$TMP/log.txt")" $N
for i in 0 $((N - 1)); do
	grep -q "\"$TMP/files/f$i\"" "$TMP/log.txt" || fail "f$i not logged"
done
expect_eq "summary openat" "$(awk '$1 == "openat" { print $2 }' "$TMP/log.txt")" $N
expect_eq "summary execve" "$(awk '$1 == "execve" { print $2 }' "$TMP/log.txt")" 1
expect_eq "summary total" "$(awk '$1 == "total" { print $2 }' "$TMP/log.txt")" $((N + 1))

# the same in JSON lines: every line parses, N openat records, summary N
rm -f "$TMP"/files/*
"$RUN" --summary --format=json --log="$TMP/log.json" -- "$PROBE" open "$TMP/files" $N ||
	fail "run_probe open (json) exited $?"
jq -e . "$TMP/log.json" >/dev/null || fail "log.json is not JSON lines"
expect_eq "json openat records" \
	"$(jq -r 'select(.syscall == "openat") | .args.pathname' "$TMP/log.json" | grep -c "^$TMP/files/f[0-9]*$")" $N
expect_eq "json summary openat" "$(jq -r 'select(.summary) | .summary.openat' "$TMP/log.json")" $N
expect_eq "json dirfd" "$(jq -r 'select(.syscall == "openat") | .args.dirfd' "$TMP/log.json" | sort -u)" -100
echo PASS
