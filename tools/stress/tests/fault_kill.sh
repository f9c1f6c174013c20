#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --kill: SIGKILL a quarter of the targets inside their call; the supervisor's
# late SENDs get ENOENT and it serves the survivors to the end.
. "$(dirname "$0")/lib.sh"
stress --kill --targets=20 --requests=2000 --strategy=blocking,poll,epoll,io_uring --topology=shared,per-target -- \
	"1 <= r['killed'] <= 5" \
	"r['issued'] == r['replied'] + r['killed_in_call']" \
	"r['killed_in_call'] <= r['killed']" \
	"r['replied'] >= (20 - r['killed']) * 2000" \
	"r['received'] == r['sent'] + r['send_enoent']" \
	"r['lost_after_send'] <= r['killed_in_call']"
echo "ok: killed targets accounted for, survivors served"
