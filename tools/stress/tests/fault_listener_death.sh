#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --listener-death: the supervisor exits halfway; every target gets ENOSYS
# exactly once and leaves cleanly; nothing SENT is lost.
. "$(dirname "$0")/lib.sh"
stress --listener-death --targets=10 --requests=1000 --strategy=blocking,epoll,io_uring --topology=shared,per-target -- \
	"r['enosys'] == 10" \
	"r['replied'] < 10000" \
	"r['issued'] == r['replied'] + r['enosys']" \
	"r['sent'] == r['replied']" \
	"r['received'] == r['sent'] + r['abandoned'] and r['abandoned'] <= 10"
echo "ok: every target saw ENOSYS once and left"
