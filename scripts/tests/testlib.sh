# SPDX-License-Identifier: GPL-2.0
# Sourced first by every shell test: the 0/1/77 convention in one place.
# (The kernel-log scan is not here: the runner does it, scripts/tests/kmsg-run.)
#
#   fail MSG        "not ok: MSG" and exit 1 at once
#   soft_fail MSG   "not ok: MSG", counted in $fails; the test goes on and
#                   finish exits 1 (for tests that report every failed check)
#   check MSG CMD... run CMD; one counted check: soft_fail MSG unless CMD
#                   succeeds; returns 0, or 1 after the soft_fail (a test
#                   under set -e writes check ... || : to go on)
#   skip REASON     "skip: REASON" and exit 77: a skip always says why
#   need CMD...     fail unless each CMD is on PATH: scripts/setup installs
#                   every package of scripts/packages.txt, so a missing tool
#                   is a broken setup, never a skip
#   finish          "N/M checks passed" when the test counted $checks (or,
#                   when more failed than were counted, says so);
#                   exit 1 after any soft_fail, else 0
#   on_exit CMD     run CMD when the test exits, the last registered first;
#                   the test's exit status is kept
#   TEST_TMP        a scratch directory, removed at exit
set -u
fails=0 checks=0
testlib_exit_cmds=()

fail() { echo "not ok: $*"; exit 1; }
soft_fail() { echo "not ok: $*"; fails=$((fails + 1)); }
check() {
	local msg=$1
	shift
	checks=$((checks + 1))
	if "$@"; then
		return 0
	else
		soft_fail "$msg"
		return 1
	fi
}
skip() { echo "skip: $*"; exit 77; }
need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null ||
			fail "$c is not installed: scripts/setup installs it (scripts/packages.txt)"
	done
}

finish() {
	if [ "$checks" = 0 ]; then
		:
	elif [ "$fails" -gt "$checks" ]; then	# a soft_fail outside any counted check
		echo "$fails checks failed, only $checks counted: some checks are uncounted"
	else
		echo "$((checks - fails))/$checks checks passed"
	fi
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
