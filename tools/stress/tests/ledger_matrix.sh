#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# One strategy, both topologies, 1 and 7 targets, 1 and 2 supervisor threads:
# without faults the books balance exactly, request for request.
. "$(dirname "$0")/lib.sh"
strategy=${1:?strategy}
R=50
for k in 1 2; do
	stress --strategy="$strategy" --topology=shared,per-target --targets=1,7 --threads=$k --requests=$R -- \
		"r['issued'] == r['replied'] == r['received'] == r['sent'] == r['targets'] * $R" \
		"r['iterations'] == r['targets'] * $R" \
		"r['eintr'] == r['enosys'] == r['killed'] == r['send_enoent'] == r['lost_after_send'] == 0" \
		"r['listeners'] == (1 if '/shared/' in r['name'] else r['targets'])" \
		"sum(r[k] for k in r if k.startswith('batch_le_') or k == 'batch_gt_1024') == r['wakeups']" \
		"abs(r['batch_mean'] * r['wakeups'] - r['received']) < 1e-6 * r['received']" \
		"r['p50'] > 0 and r['max'] >= r['p999'] >= r['p99'] >= r['p50'] >= r['min']" \
		"r['syscalls_per_op'] >= 2" \
		"len(rows) == 4"
done
echo "ok: $strategy balances at every topology"
