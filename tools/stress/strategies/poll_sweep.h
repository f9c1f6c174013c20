/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_POLL_SWEEP_H
#define KNOTIF_STRESS_POLL_SWEEP_H

#include "supervisor.h"

/*
 * poll() on every listener of t with timeout_ms, then one notification from
 * each readable one, until every listener has hung up; a poll that finds
 * nothing yields the CPU. poll.c sleeps in it (-1), spin.c never (0).
 */
int poll_serve(struct sup_thread *t, int timeout_ms);

#endif
