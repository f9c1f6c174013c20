#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# execve is logged with its path and argv, and an intercepted connect() with
# the address it names; --syscalls narrows what is intercepted.
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"

"$RUN" --log="$TMP/log.txt" -- /bin/sh -c '/bin/echo hello "two words" >/dev/null; :' ||
	fail "sh exited $?"
grep -q '^\[pid [0-9]*\] execve("/bin/sh", \["/bin/sh", "-c", "/bin/echo hello \\"two words\\" >/dev/null; :"\], 0x[0-9a-f]*)$' "$TMP/log.txt" ||
	fail "no execve line for /bin/sh: $(grep execve "$TMP/log.txt")"
grep -q '^\[pid [0-9]*\] execve("/bin/echo", \["/bin/echo", "hello", "two words"\], 0x[0-9a-f]*)$' "$TMP/log.txt" ||
	fail "no execve line for /bin/echo: $(grep execve "$TMP/log.txt")"

"$RUN" --syscalls=execve --format=json --log="$TMP/log.json" -- /bin/true a b || fail "true exited $?"
expect_eq "json execve" "$(jq -c '[.syscall, .args.pathname, .args.argv]' "$TMP/log.json")" \
	'["execve","/bin/true",["/bin/true","a","b"]]'

# a connect to an AF_UNIX path nobody listens on
"$RUN" --syscalls=connect --log="$TMP/connect.txt" -- "$PROBE" connect-unix "$TMP/nobody.sock" ||
	fail "run_probe connect-unix exited $?"
expect_eq "connect line" "$(sed 's/^\[pid [0-9]*\] //; s/^connect([0-9]*,/connect(FD,/' "$TMP/connect.txt")" \
	"connect(FD, {unix \"$TMP/nobody.sock\"}, 110)"
echo PASS
