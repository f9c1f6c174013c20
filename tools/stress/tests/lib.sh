# SPDX-License-Identifier: GPL-2.0
# Sourced by the knotif-stress shell tests: testlib.sh (the 0/1/77
# convention and a scratch directory), and the binary from ctest's
# environment.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../../../scripts/tests/testlib.sh"
: "${KNOTIF_STRESS:?run through ctest}"
here=$(dirname "$0")
tmp=$TEST_TMP

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
