# SPDX-License-Identifier: GPL-2.0
# Sourced first by every shell test: the 0/1/77 convention in one place.
# (The kernel-log scan is not here: the runner does it, scripts/tests/kmsg-run.)
#
#   fail MSG        "not ok: MSG" and exit 1 at once
#   soft_fail MSG   "not ok: MSG", counted in $fails; the test goes on and
#                   finish exits 1 (for tests that report every failed check)
#   skip REASON     "skip: REASON" and exit 77: a skip always says why
#   finish          "N/M checks passed" when the test counted $checks;
#                   exit 1 after any soft_fail, else 0
#   on_exit CMD     run CMD when the test exits, the last registered first;
#                   the test's exit status is kept
#   TEST_TMP        a scratch directory, removed at exit
set -u
fails=0 checks=0
testlib_exit_cmds=()

fail() { echo "not ok: $*"; exit 1; }
soft_fail() { echo "not ok: $*"; fails=$((fails + 1)); }
skip() { echo "skip: $*"; exit 77; }

finish() {
	[ "$checks" = 0 ] || echo "$((checks - fails))/$checks checks passed"
	[ "$fails" = 0 ] || exit 1
	exit 0
}

on_exit() { testlib_exit_cmds=("$1" "${testlib_exit_cmds[@]}"); }
testlib_at_exit() {
	local rc=$? cmd
	trap - EXIT
	set +e	# a test under set -e: one failed cleanup must not skip the rest
	for cmd in "${testlib_exit_cmds[@]}"; do
		eval "$cmd"
	done
	exit "$rc"
}
trap testlib_at_exit EXIT

TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/knotif-test.XXXXXX")
on_exit 'rm -rf "$TEST_TMP"'
