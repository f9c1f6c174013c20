#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# analysis/workloads/device-tree really unpacks its archives (a check that
# the contained unpack made every node, owned by 65534, comes before any
# timing), writes the three results and the per-node line, and refuses bad
# flags with one line and exit 2 before anything runs.
# Usage: device_tree.sh KNOTIF_RUN   Exit 0/1/77.
set -uo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
run=$1
tool=$(dirname "$0")/../device-tree

[ "$(id -u)" = 0 ] || skip "needs root: knotif-run --emulate=mknod creates the nodes as root"
need hyperfine
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur true 2>/dev/null ||
	skip "unprivileged user namespaces are not available here"

usage() {	# MESSAGE ARGS...: exit 2, exactly one line holding MESSAGE
	local want=$1 out rc
	shift
	out=$("$tool" --knotif-run="$run" "$@" 2>&1)
	rc=$?
	[ "$rc" = 2 ] || fail "$*: exit $rc, expected 2 ($out)"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "$*: more than one line: $out"
	case $out in *"$want"*) ;; *) fail "$*: '$out' lacks '$want'" ;; esac
}
usage "--nodes must be 1..100000" --nodes=0 --out="$TEST_TMP"
usage "--runs must be 2..1000" --runs=1 --out="$TEST_TMP"
usage "No such file or directory" --out="$TEST_TMP/no/such/folder"
touch "$TEST_TMP/a-file"
usage "not a folder" --out="$TEST_TMP/a-file"
usage "is not executable" --out="$TEST_TMP" --knotif-run=/nonexistent
[ ! -e "$TEST_TMP/no" ] || fail "a refused --out was made"

# a missing --out is made (an installed run's default is ./knotif-workloads)
"$tool" --knotif-run="$run" --nodes=14 --runs=2 --warmup=0 --out="$TEST_TMP/new" >"$TEST_TMP/stdout" 2>"$TEST_TMP/err" ||
	fail "device-tree exited $?: $(tail -3 "$TEST_TMP/err")"
mv "$TEST_TMP/new/"* "$TEST_TMP/" && rmdir "$TEST_TMP/new"
names=$(jq -r '[.results[].command] | join(",")' "$TEST_TMP/device-tree.json")
[ "$names" = "host, files,contained, files,contained, nodes" ] || fail "results: $names"
[ "$(jq '.knotif.nodes' "$TEST_TMP/device-tree.json")" = 14 ] || fail "context.nodes"
[ "$(jq '[.results[].times | length] | min' "$TEST_TMP/device-tree.json")" = 2 ] || fail "not 2 runs each"
grep -q '^Per device node created by the supervisor (contained nodes − contained files, / 14): \*\*' \
	"$TEST_TMP/device-tree.md" || fail "no per-node line: $(cat "$TEST_TMP/device-tree.md")"
cmp -s "$TEST_TMP/stdout" "$TEST_TMP/device-tree.md" || fail "stdout is not the table written"
echo "ok: three results, the per-node line, bad flags refused"
