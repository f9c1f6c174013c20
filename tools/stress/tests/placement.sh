#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --placement: same pins targets and supervisor to one CPU, cross to one each;
# the context records the CPUs, and both balance.
. "$(dirname "$0")/lib.sh"
[ "$(nproc)" -ge 2 ] || skip "cross placement needs 2 CPUs, this machine has $(nproc)"
stress --placement=same,cross --targets=4 --requests=50 --strategy=blocking,epoll --topology=per-target -- \
	"r['replied'] == r['sent'] == 200" \
	"ctx['knotif']['placements']['same']['target_cpu'] == ctx['knotif']['placements']['same']['supervisor_cpu'] >= 0" \
	"ctx['knotif']['placements']['cross']['target_cpu'] != ctx['knotif']['placements']['cross']['supervisor_cpu']" \
	"len(rows) == 4"
echo "ok: same and cross placements recorded and balanced"
