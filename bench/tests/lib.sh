# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: testlib.sh (the 0/1/77 exit convention:
# pass/fail/skip with a reason, and a scratch directory), and paths from
# ctest's environment.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/tests/testlib.sh"
: "${KNOTIF_BENCH:?run through ctest}" "${CHECK_JSON:?run through ctest}"
tmp=$TEST_TMP
# a quick run: enough to prove behaviour, far too few samples for figures
QUICK=(--samples=200 --benchmark_repetitions=2)
