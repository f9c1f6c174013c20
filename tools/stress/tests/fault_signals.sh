#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --signals: a SIGUSR1 storm interrupts waiting targets (EINTR, no SA_RESTART);
# each reissues its request, and every request still gets its own reply.
. "$(dirname "$0")/lib.sh"
stress --signals --targets=20 --requests=1000 --strategy=blocking,epoll --topology=shared,per-target -- \
	"r['replied'] == 20000" \
	"r['signals_sent'] > 0 and r['signals_caught'] > 0 and r['eintr'] > 0" \
	"r['issued'] == r['replied'] + r['eintr']" \
	"r['received'] == r['sent'] + r['send_enoent']" \
	"0 <= r['lost_after_send'] == r['sent'] - r['replied'] <= r['eintr']" \
	"r['killed'] == r['enosys'] == 0"
# thread targets: signalled with tgkill, same books
stress --signals --target-kind=threads --targets=10 --requests=1000 --strategy=epoll --topology=shared,per-target -- \
	"r['replied'] == 10000 and r['eintr'] > 0" \
	"r['issued'] == r['replied'] + r['eintr']"
echo "ok: interrupted requests were reissued and answered"
