#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad flags exit 2 with exactly one line on stderr, and run nothing.
RUN=$1
. "$(dirname "$0")/lib.sh"

expect_usage() {
	local want=$1
	shift
	"$RUN" "$@" 2>"$TMP/err" >"$TMP/out"
	expect_eq "status of $*" $? 2
	expect_eq "stderr lines of $*" "$(wc -l <"$TMP/err")" 1
	expect_eq "message of $*" "$(cat "$TMP/err")" "knotif-run: $want"
	[ -e "$TMP/ran" ] && fail "$* ran the command"
	return 0
}

expect_usage "unknown option '--bogus' (see --help)" --bogus -- touch "$TMP/ran"
expect_usage "unknown system call 'opneat' in --syscalls (see --list-syscalls)" \
	--syscalls=openat,opneat -- touch "$TMP/ran"
expect_usage "--syscalls needs at least one system call name" --syscalls=, -- touch "$TMP/ran"
expect_usage "invalid value for --format: 'xml' (expected text or json)" --format=xml -- touch "$TMP/ran"
expect_usage "--quiet and --log exclude each other" --quiet --log=/dev/null -- touch "$TMP/ran"
expect_usage "option '--log' needs a value (see --help)" --log
expect_usage "no command to run (see --help)" --summary
expect_usage "cannot write --log=/nonexistent-knotif/log: No such file or directory" \
	--log=/nonexistent-knotif/log -- touch "$TMP/ran"
expect_usage "invalid value for --syscalls: 'openat,,execve' (an empty item in the list)" \
	--syscalls=openat,,execve -- touch "$TMP/ran"
expect_usage "invalid value for --emulate: 'umount' (expected mknod, mount, sysinfo)" \
	--emulate=mount,umount -- touch "$TMP/ran"
expect_usage "--policy needs --emulate=mknod" --emulate=mount --policy=/dev/null -- touch "$TMP/ran"

# options after the command belong to the command
"$RUN" --quiet -- sh -c 'exit 3' --bogus
expect_eq "command's own flags" $? 3
"$RUN" --list-syscalls | grep -qx connect || fail "--list-syscalls lacks connect"
echo PASS
