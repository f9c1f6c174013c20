// SPDX-License-Identifier: GPL-2.0
/*
 * poll: one pollfd array per thread; the thread sleeps until a listener is
 * readable and then answers one notification from every readable listener
 * (the batch). A listener is dropped when it reports POLLHUP (no task uses
 * its filter any more). spin.c runs the same sweep without sleeping.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "poll_sweep.h"
#include "stress.h"
#include "supervisor.h"

static int sweep(struct sup_thread *t, struct pollfd *p, int *live, int64_t *batch)
{
	for (int i = 0; i < t->nfds; i++) {
		short ev = p[i].revents;
		int ret;

		if (!ev)
			continue;
		if (ev & (POLLERR | POLLNVAL))
			return stress_fail(t->m, "poll: listener %d reports %#x", p[i].fd, ev);
		if (ev & POLLHUP) {
			p[i].fd = -1;	/* poll ignores it from now on */
			(*live)--;
			continue;
		}
		ret = stress_serve_one(t, p[i].fd);
		if (ret < 0)
			return ret;
		*batch += ret == SERVED;
	}
	return 0;
}

int poll_serve(struct sup_thread *t, int timeout_ms)
{
	struct pollfd *p = calloc((size_t)t->nfds, sizeof(*p));
	int live = t->nfds, ret = 0;

	if (!p)
		return -ENOMEM;
	for (int i = 0; i < t->nfds; i++)
		p[i] = (struct pollfd){ .fd = t->fds[i], .events = POLLIN };
	while (live > 0) {
		int64_t batch = 0;
		int n = poll(p, (nfds_t)t->nfds, timeout_ms);

		t->slot->syscalls++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = stress_fail(t->m, "poll: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			sched_yield();
			t->slot->syscalls++;
			continue;
		}
		ret = sweep(t, p, &live, &batch);
		if (ret)
			break;
		record_batch(t->slot, batch);
	}
	free(p);
	return ret;
}

static int serve(struct sup_thread *t)
{
	return poll_serve(t, -1);
}

const struct strategy strategy_poll = { .name = "poll", .serve = serve };
