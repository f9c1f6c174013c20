// SPDX-License-Identifier: GPL-2.0
/*
 * spin: never sleeps. A zero-timeout poll sweep over the thread's listeners
 * answers one notification from each readable one; a sweep that finds
 * nothing calls sched_yield() so that a target sharing the CPU can run. It
 * buys the shortest reaction with a CPU that is always busy.
 */
#include "poll_sweep.h"

static int serve(struct sup_thread *t)
{
	return poll_serve(t, 0);
}

const struct strategy strategy_spin = { .name = "spin", .serve = serve };
