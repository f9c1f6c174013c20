#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Targets as threads of one process: per-target filters are per thread
# (installed without TSYNC), the shared one is inherited from the spawner.
. "$(dirname "$0")/lib.sh"
# every strategy of the registry
strategies=$("$KNOTIF_STRESS" --list-strategies) || fail "--list-strategies exited $?"
n=$(wc -l <<<"$strategies")
stress --target-kind=threads --strategy="$(paste -sd, <<<"$strategies")" --topology=shared,per-target \
	--targets=6 --threads=2 --requests=40 -- \
	"r['issued'] == r['replied'] == r['received'] == r['sent'] == 240" \
	"'/kind:threads/' in r['name']" \
	"len(rows) == 2 * $n"
echo "ok: thread targets balance"
