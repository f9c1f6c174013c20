// SPDX-License-Identifier: GPL-2.0
/*
 * blocking: a thread per listener sleeping in NOTIF_RECV, the simplest
 * supervisor there is. Every wake-up hands it exactly one notification, so
 * its batch is always 1 and it pays a thread (and a context switch) per
 * listener. RECV returns ENOENT at once when no task uses the filter any
 * more (Linux 6.11+; before, the supervisor's main thread interrupts it
 * then, see end_blocked_receivers()): that, confirmed by POLLHUP, is when
 * the thread is done.
 */
#include "supervisor.h"

static int serve(struct sup_thread *t)
{
	int fd = t->fds[0];

	for (;;) {
		int ret = stress_serve_one(t, fd);

		if (ret == SERVED) {
			record_batch(t->slot, 1);
			continue;
		}
		if (ret < 0)
			return ret;
		if (listener_hung_up(t, fd))
			return 0;
	}
}

const struct strategy strategy_blocking = {
	.name = "blocking",
	.serve = serve,
	.thread_per_listener = true,	/* RECV blocks on one listener */
	.recv_sleeps_past_hangup = true,
};
