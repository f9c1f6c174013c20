#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The seeds' case: 1000 targets, 1000 listeners, one supervisor thread; and
# 1000 targets pending on one shared listener.
. "$(dirname "$0")/lib.sh"
stress --targets=1000 --topology=per-target --strategy=epoll --threads=1 --requests=5 -- \
	"r['listeners'] == 1000 and r['supervisor_threads'] == 1" \
	"r['issued'] == r['replied'] == r['received'] == r['sent'] == 5000"
stress --targets=1000 --topology=shared --strategy=blocking --threads=1 --requests=5 -- \
	"r['listeners'] == 1 and r['supervisor_threads'] == 1" \
	"r['issued'] == r['replied'] == r['received'] == r['sent'] == 5000"
echo "ok: 1000 x 1000 balances"
