#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tables of results/kernel/cross made from the JSON beside them are what
# results/kernel/cross/regen makes of it (repeat-table.py, placement-ratios.py,
# wakeup-table.py and the hand-written NAME*.head.md, NAME.tail.md), byte for byte: nobody
# edited their numbers by hand, and the tools still read the stored runs as
# they did. Every table there whose header names one of those tools is one
# regen makes. regen writes into a scratch folder, never into the tree.
set -euo pipefail
. "$(dirname "$0")/../../../scripts/tests/testlib.sh"
top=$1
cross=$top/results/kernel/cross
out=$TEST_TMP/cross
"$cross/regen" --out "$out" || fail "results/kernel/cross/regen exited $?"
made=()
made_by_regen() { [[ " ${made[*]} " == *" $1 "* ]]; }
for f in "$out"/*.md; do
	[ -e "$f" ] || fail "regen wrote no table"
	name=${f##*/}
	made+=("$name")
	check "results/kernel/cross/$name is not what regen makes of the JSON beside it: $(diff "$cross/$name" "$f" 2>&1 | head -5)" \
		cmp -s "$cross/$name" "$f" || :
done
for f in "$cross"/*.md; do
	name=${f##*/}
	case $name in *.head.md | *.tail.md) continue ;; esac
	grep -qE 'repeat-table\.py|placement-ratios\.py|wakeup-table\.py' "$f" || continue
	check "results/kernel/cross/$name names a table tool in its header, but regen does not make it" \
		made_by_regen "$name" || :
done
check "regen made ${#made[@]} tables, fewer than its 5: ${made[*]}" [ "${#made[@]}" -ge 5 ] || :
finish
