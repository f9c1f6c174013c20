#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --listener-death: the supervisor exits halfway through the replies; every
# target still in its loop gets ENOSYS exactly once and leaves cleanly (one
# that finished its requests first never sees it); nothing SENT is lost.
. "$(dirname "$0")/lib.sh"
stress --listener-death --targets=10 --requests=1000 --strategy=blocking,epoll,io_uring --topology=shared,per-target -- \
	"1 <= r['enosys'] <= 10" \
	"r['replied'] < 10000 and r['replied'] >= (10 - r['enosys']) * 1000" \
	"r['issued'] == r['replied'] + r['enosys']" \
	"r['sent'] == r['replied']" \
	"r['received'] == r['sent'] + r['abandoned'] and r['abandoned'] <= 10"
stress --listener-death --target-kind=threads --targets=10 --requests=1000 --strategy=epoll --topology=shared,per-target -- \
	"1 <= r['enosys'] <= 10" \
	"r['issued'] == r['replied'] + r['enosys'] and r['sent'] == r['replied']"
echo "ok: every target saw ENOSYS once and left"
