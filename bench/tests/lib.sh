# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: paths from ctest's environment, a scratch
# directory, and the 0/1/77 exit convention (pass/fail/skip with a reason).
set -u
: "${KNOTIF_BENCH:?run through ctest}" "${CHECK_JSON:?run through ctest}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }
# a quick run: enough to prove behaviour, far too few samples for figures
QUICK=(--samples=200 --benchmark_repetitions=2)
