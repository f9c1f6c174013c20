# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: paths from ctest's environment, a scratch
# directory, and the 0/1/77 exit convention (pass/fail/skip with a reason).
set -u
: "${KNOTIF_BENCH:?run through ctest}" "${CHECK_JSON:?run through ctest}"
tmp=$(mktemp -d)
# a kernel WARNING/BUG logged while the test ran fails it
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/kmsg-guard.sh"
trap 'rc=$?; rm -rf "$tmp"; kmsg_guard_exit $rc' EXIT
fail() { echo "not ok: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }
# a quick run: enough to prove behaviour, far too few samples for figures
QUICK=(--samples=200 --benchmark_repetitions=2)
