#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Strings from the command are hostile. A socket path (or file path) with a
# newline, quotes, a backslash and a byte that is not UTF-8 cannot forge a
# log line: text escapes it as C does, one call per line; JSON is valid and
# gives back the exact bytes ("hex" when they are not UTF-8, else a string).
# A path in PROT_NONE memory, which the kernel refuses with EFAULT, is
# logged as its address, not as the zeros /proc/PID/mem would show there.
RUN=$1 PROBE=$2
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq is needed"

cd "$TMP" || fail "cd $TMP"
evil=$'x\n[pid 1] execve("/bin/evil", ["evil"], 0x0)\xff\\x41'
"$RUN" --syscalls=connect --log="$TMP/text.log" -- "$PROBE" connect-unix "$evil" || fail "text run exited $?"
expect_eq "text lines" "$(wc -l <"$TMP/text.log")" 1
expect_eq "text line" "$(sed 's/^\[pid [0-9]*\] //; s/^connect([0-9]*,/connect(FD,/' "$TMP/text.log")" \
	'connect(FD, {unix "x\n[pid 1] execve(\"/bin/evil\", [\"evil\"], 0x0)\xff\\x41"}, 110)'

"$RUN" --syscalls=connect --format=json --log="$TMP/json.log" -- "$PROBE" connect-unix "$evil" ||
	fail "json run exited $?"
expect_eq "json lines" "$(wc -l <"$TMP/json.log")" 1
expect_eq "json bytes back" "$(jq -r '.args.addr.path.hex' "$TMP/json.log")" "$(printf '%s' "$evil" | od -An -tx1 | tr -d ' \n')"
# valid UTF-8 with a literal backslash stays a plain string, told apart from any escape
"$RUN" --syscalls=connect --format=json --log="$TMP/json2.log" -- "$PROBE" connect-unix 'a\x41"b' ||
	fail "json run 2 exited $?"
expect_eq "json literal backslash" "$(jq -r '.args.addr.path' "$TMP/json2.log")" 'a\x41"b'

# a file path with a newline: one text line, exact JSON string
"$RUN" --syscalls=openat --log="$TMP/open.log" -- "$PROBE" open $'d\n[pid 1] x' 1 2>/dev/null
expect_eq "openat text lines" "$(grep -c . "$TMP/open.log")" "$(wc -l <"$TMP/open.log")"
grep -q 'openat(AT_FDCWD, "d\\n\[pid 1\] x/f0"' "$TMP/open.log" || fail "openat line: $(cat "$TMP/open.log")"

addr=$("$RUN" --syscalls=openat --log="$TMP/protnone.log" -- "$PROBE" open-protnone) ||
	fail "open-protnone exited $? (the kernel must refuse it with EFAULT)"
grep -q "openat(AT_FDCWD, $addr, " "$TMP/protnone.log" ||
	fail "a PROT_NONE path is not logged as its address $addr: $(cat "$TMP/protnone.log")"
# an argv whose escaped form overflows the line (each \x01 is 4 bytes logged):
# the line is cut, and still ends, so the next call is a line of its own
big=$(head -c 6000 /dev/zero | tr '\0' '\001')
"$RUN" --syscalls=execve --log="$TMP/big.log" -- sh -c '/bin/true "$@"; /bin/true' sh "$big" "$big" "$big" "$big" ||
	fail "the long-argv run exited $?"
calls=$(grep -o '\[pid [0-9]*\] execve(' "$TMP/big.log" | wc -l)
[ "$calls" -ge 3 ] || fail "the long-argv run logged $calls execve calls, not 3"
expect_eq "one line per execve after overflowing ones" "$(wc -l <"$TMP/big.log")" "$calls"
echo PASS
