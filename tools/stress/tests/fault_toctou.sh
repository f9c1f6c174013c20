#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --toctou: the supervisor reads each request's path from the target's memory
# and checks NOTIF_ID_VALID before acting. Alone, every path reads back right
# (the reply is its hash, checked by the target); with kills and signals,
# notifications that vanish mid-read are counted and never answered.
. "$(dirname "$0")/lib.sh"
stress --toctou --targets=8 --requests=200 --strategy=epoll,blocking --topology=shared,per-target -- \
	"r['replied'] == r['sent'] == r['received'] == 1600 and r['toctou_invalid'] == 0"
stress --toctou --reply=continue --targets=4 --requests=100 --strategy=epoll -- \
	"r['replied'] == r['sent'] == 400"
stress --toctou --kill --signals --targets=20 --requests=1000 --strategy=epoll,blocking --topology=shared,per-target -- \
	"r['killed'] >= 1" \
	"r['received'] == r['sent'] + r['send_enoent'] + r['toctou_invalid']" \
	"r['issued'] == r['replied'] + r['eintr'] + r['killed_in_call']"
echo "ok: the path read from target memory is checked before use"
