#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The pending-notification curve: M-1 notifications parked, a probe cycled
# through the tail; every parked target is answered at the end.
. "$(dirname "$0")/lib.sh"
stress --pending=1,10,50 --cycles=100 --placement=same -- \
	"r['pending'] in (1, 10, 50)" \
	"r['iterations'] == 100 - 10" \
	"r['replied'] == r['sent'] == r['received'] == 101 + r['pending'] - 1" \
	"r['id_valid_p50'] > 0 and r['send_p50'] > 0 and r['p50'] > 0" \
	"[x['pending'] for x in rows] == [1, 10, 50]"
"$KNOTIF_STRESS" --pending=1,10 --cycles=50 >"$tmp/console" || fail "console run failed"
grep -q "^# ID_VALID list walk: .* ns per pending notification" "$tmp/console" || fail "no slope line: $(cat "$tmp/console")"
echo "ok: pending curve rows and ledger"
