/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_PENDING_H
#define KNOTIF_STRESS_PENDING_H

#include "run.h"

/*
 * Hold M-1 notifications pending (SENT, unanswered) on the one filter and
 * cycle a probe target through it: its notification always sits at the tail,
 * so SEND and ID_VALID walk past M-1 others to find it, and RECV walks past
 * them to find the next INIT one. M = c->targets, all released and calling;
 * fills r->cycle, r->send and r->id_valid. 0 or -errno.
 */
int pending_measure(const struct config *c, struct stress_mem *m, int listener, struct run_result *r);

#endif
