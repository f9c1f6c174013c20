#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Targets as threads of one process: per-target filters are per thread
# (installed without TSYNC), the shared one is inherited from the spawner.
. "$(dirname "$0")/lib.sh"
stress --target-kind=threads --strategy=blocking,poll,epoll,io_uring,spin --topology=shared,per-target \
	--targets=6 --threads=2 --requests=40 -- \
	"r['issued'] == r['replied'] == r['received'] == r['sent'] == 240" \
	"'/kind:threads/' in r['name']" \
	"len(rows) == 10"
echo "ok: thread targets balance"
