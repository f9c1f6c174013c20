// SPDX-License-Identifier: GPL-2.0
/*
 * epoll: one level-triggered epoll instance per thread; every epoll_wait
 * returns the ready listeners and the thread answers one notification from
 * each (the batch). A listener still holding notifications stays ready and
 * comes back in the next wait. Setup (EPOLL_CTL_ADD) happens before the run
 * starts and is not counted; a hang-up costs one EPOLL_CTL_DEL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "stress.h"
#include "supervisor.h"

#define EPOLL_BATCH_MAX 1024

static int serve(struct sup_thread *t)
{
	int max = t->nfds < EPOLL_BATCH_MAX ? t->nfds : EPOLL_BATCH_MAX;
	struct epoll_event *ev = calloc((size_t)max, sizeof(*ev));
	int ep = epoll_create1(EPOLL_CLOEXEC), live = t->nfds, ret = 0;

	if (!ev || ep < 0) {
		ret = stress_fail(t->m, "epoll setup: %s", ev ? strerror(errno) : "out of memory");
		goto out;
	}
	for (int i = 0; i < t->nfds; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.fd = t->fds[i] };

		if (epoll_ctl(ep, EPOLL_CTL_ADD, t->fds[i], &e)) {
			ret = stress_fail(t->m, "EPOLL_CTL_ADD: %s", strerror(errno));
			goto out;
		}
	}
	while (live > 0) {
		int64_t batch = 0;
		int n = epoll_wait(ep, ev, max, -1);

		t->slot->syscalls++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = stress_fail(t->m, "epoll_wait: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n && !ret; i++) {
			int fd = ev[i].data.fd;

			if (ev[i].events & EPOLLHUP) {
				epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
				t->slot->syscalls++;
				live--;
				continue;
			}
			ret = stress_serve_one(t, fd);
			batch += ret == SERVED;
			ret = ret < 0 ? ret : 0;
		}
		if (ret)
			break;
		record_batch(t->slot, batch);
	}
out:
	if (ep >= 0)
		close(ep);
	free(ev);
	return ret;
}

const struct strategy strategy_epoll = { .name = "epoll", .serve = serve };
