#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Targets as threads of one process: per-target filters are per thread
# (installed without TSYNC), the shared one is inherited from the spawner.
# Every strategy of the registry, one at a time: one this kernel lacks is
# skipped with its reason, the others must balance, and at least one runs.
. "$(dirname "$0")/lib.sh"
strategies=$("$KNOTIF_STRESS" --list-strategies) || fail "--list-strategies exited $?"
ran=0
for s in $strategies; do
	(stress --target-kind=threads --strategy="$s" --topology=shared,per-target \
		--targets=6 --threads=2 --requests=40 -- \
		"r['issued'] == r['replied'] == r['received'] == r['sent'] == 240" \
		"'/kind:threads/' in r['name']" \
		"len(rows) == 2")
	rc=$?
	case $rc in
	0) ran=$((ran + 1)) ;;
	77) echo "($s skipped)" ;;
	*) exit $rc ;;
	esac
done
[ $ran -gt 0 ] || skip "no strategy runs here"
echo "ok: thread targets balance with $ran strategies"
