# SPDX-License-Identifier: GPL-2.0
# Shared by the knotif-run tests: sourced with RUN (knotif-run) and PROBE (run_probe) set.
# Each test exits 0 pass, 1 fail, 77 skip (with its reason).

set -u
TMP=$(mktemp -d /tmp/knotif-run-test.XXXXXX)
# a kernel WARNING/BUG logged while the test ran fails it
. "$(dirname "${BASH_SOURCE[0]}")/../../../scripts/kmsg-guard.sh"
trap 'rc=$?; rm -rf "$TMP"; kmsg_guard_exit $rc' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# exact equality, with both values in the message
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$3', got '$2'"
}

# a kernel without user notification (or CONTINUE) is a skip, not a failure
if ! "$RUN" --quiet -- true 2>"$TMP/probe.err"; then
	if grep -q 'unsupported:' "$TMP/probe.err"; then
		echo "SKIP: $(cat "$TMP/probe.err")"
		exit 77
	fi
	fail "knotif-run -- true: $(cat "$TMP/probe.err")"
fi
