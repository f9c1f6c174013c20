# SPDX-License-Identifier: GPL-2.0
# Sourced by the knotif-stress shell tests: the binary from ctest's
# environment, a scratch directory, and the 0/1/77 convention.
set -u
: "${KNOTIF_STRESS:?run through ctest}"
here=$(dirname "$0")
tmp=$(mktemp -d)
# a kernel WARNING/BUG logged while the test ran fails it
. "$(dirname "${BASH_SOURCE[0]}")/../../../scripts/kmsg-guard.sh"
trap 'rc=$?; rm -rf "$tmp"; kmsg_guard_exit $rc' EXIT
fail() { echo "not ok: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }

# stress ARGS... -- CHECKS...: run knotif-stress (JSON to $tmp/out.json), require
# exit 0, then hold every row to each Python expression in CHECKS (r = the row).
stress() {
	local args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	"$KNOTIF_STRESS" "${args[@]}" --benchmark_format=json >"$tmp/out.json" 2>"$tmp/err"
	local rc=$?
	if [ $rc != 0 ]; then
		grep -q "unsupported:" "$tmp/out.json" "$tmp/err" 2>/dev/null && skip "$(grep -ho 'unsupported:[^"]*' "$tmp/out.json" | head -1)"
		fail "knotif-stress ${args[*]} exited $rc: $(cat "$tmp/err")"
	fi
	/usr/bin/python3 "$here/check_rows.py" "$tmp/out.json" "$@"
	rc=$?
	[ $rc = 0 ] || exit $rc
}
