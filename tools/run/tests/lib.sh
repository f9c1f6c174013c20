# SPDX-License-Identifier: GPL-2.0
# Shared by the knotif-run tests: sourced with RUN (knotif-run) and PROBE (run_probe) set.
# Each test exits 0 pass, 1 fail, 77 skip (with its reason): testlib.sh's
# fail and skip, sourced here first.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/../../../scripts/tests/testlib.sh"
TMP=$(mktemp -d /tmp/knotif-run-test.XXXXXX)

# A mark only this test's commands carry (run them as env KNOTIF_RUN_MARK="$MARK"
# CMD): marked lists the live processes with it in their environment.
MARK=knotif-run-test.$$.$RANDOM$RANDOM
marked() {
	grep -lzxF "KNOTIF_RUN_MARK=$MARK" /proc/[0-9]*/environ 2>/dev/null | sed 's|^/proc/||; s|/environ$||'
}

# What a test starts is SIGKILLed when it exits, by the PIDs it recorded:
# "started PID" for a child of this shell (killed while it still is one),
# record_marked for the command's processes (killed while they carry MARK).
STARTED='' RECORDED=''
started() {
	STARTED="$STARTED $1"
}
record_marked() {
	RECORDED="$RECORDED $(marked | tr '\n' ' ')"
}
parent_of() {
	local stat ppid
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	# after comm, which may hold spaces and parentheses: state, ppid
	read -r _ ppid _ <<<"${stat##*) }"
	echo "$ppid"
}
kill_recorded() {
	local p
	for p in $STARTED; do
		[ "$(parent_of "$p")" != $$ ] || kill -KILL "$p" 2>/dev/null
	done
	for p in $RECORDED; do
		! grep -qzxF "KNOTIF_RUN_MARK=$MARK" "/proc/$p/environ" 2>/dev/null || kill -KILL "$p" 2>/dev/null
	done
	return 0
}
on_exit 'kill_recorded; rm -rf "$TMP"'

# exact equality, with both values in the message
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$3', got '$2'"
}

# wait_for WHAT CMD...: until CMD succeeds; 10 s at most, a hang guard
wait_for() {
	local what=$1
	shift
	for _ in $(seq 200); do
		"$@" && return 0
		sleep 0.05
	done
	fail "$what: not within 10 s"
}

# exited_within SECONDS PID: PID (a child of this shell) has exited, or does within SECONDS
exited_within() {
	for _ in $(seq $(($1 * 10))); do
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.1
	done
	! kill -0 "$2" 2>/dev/null
}

# lines FILE N: FILE has N lines
lines() {
	[ "$(wc -l <"$1" 2>/dev/null)" = "$2" ]
}

# a kernel without user notification (or CONTINUE) is a skip, not a failure
if ! "$RUN" --quiet -- true 2>"$TMP/probe.err"; then
	grep -q 'unsupported:' "$TMP/probe.err" && skip "$(cat "$TMP/probe.err")"
	fail "knotif-run -- true: $(cat "$TMP/probe.err")"
fi
