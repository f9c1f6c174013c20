// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring: a poll request on every listener; one io_uring_enter submits
 * the re-arms of the previous batch and waits for the next batch of
 * completions, each a ready listener to answer one notification from.
 *
 * The polls are one-shot and re-armed, not multishot: a multishot poll posts
 * one completion per wake-up and coalesces wake-ups that arrive together, so
 * a listener holding two notifications (the shared topology, every time) can
 * post one completion and never another — the second notification would
 * wait forever. A one-shot poll armed on a listener that is still readable
 * completes at once (level-triggered), and its re-arm rides on the next
 * io_uring_enter at no extra system call.
 */
#include <errno.h>
#include <liburing.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "stress.h"
#include "supervisor.h"

static unsigned int pow2_at_least(unsigned int n)
{
	unsigned int p = 8;

	while (p < n)
		p <<= 1;
	return p;
}

static int arm(struct sup_thread *t, struct io_uring *ring, int i)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe) {	/* cannot happen with an SQ as large as the listener set; stay correct anyway */
		io_uring_submit(ring);
		t->slot->syscalls++;
		sqe = io_uring_get_sqe(ring);
		if (!sqe)
			return -EBUSY;
	}
	io_uring_prep_poll_add(sqe, t->fds[i], POLLIN);
	io_uring_sqe_set_data64(sqe, (uint64_t)i);
	return 0;
}

static int probe(char *why, size_t len)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(2, &ring, 0);

	if (ret) {
		snprintf(why, len, "io_uring_setup: %s%s", strerror(-ret),
			 ret == -EPERM ? " (kernel.io_uring_disabled?)" : "");
		return ret;
	}
	io_uring_queue_exit(&ring);
	return 0;
}

static int serve(struct sup_thread *t)
{
	struct io_uring_params params = { .flags = IORING_SETUP_CQSIZE };
	unsigned int entries = pow2_at_least((unsigned int)t->nfds);
	struct io_uring ring;
	int live = t->nfds, ret;

	params.cq_entries = 2 * entries;
	ret = io_uring_queue_init_params(entries, &ring, &params);
	if (ret)
		return stress_fail(t->m, "io_uring_queue_init: %s", strerror(-ret));
	for (int i = 0; i < t->nfds && !ret; i++)
		ret = arm(t, &ring, i);
	while (!ret && live > 0) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		int64_t batch = 0;

		ret = io_uring_submit_and_wait(&ring, 1);
		t->slot->syscalls++;
		if (ret == -EINTR) {
			ret = 0;
			continue;
		}
		if (ret < 0)
			break;
		ret = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			int i = (int)cqe->user_data, one;

			seen++;
			if (ret)
				continue;
			if (cqe->res < 0) {
				ret = stress_fail(t->m, "io_uring poll on listener %d: %s", t->fds[i],
						  strerror(-cqe->res));
				continue;
			}
			if (cqe->res & POLLHUP) {
				live--;
				continue;
			}
			one = stress_serve_one(t, t->fds[i]);
			if (one < 0) {
				ret = one;
				continue;
			}
			batch += one == SERVED;
			ret = arm(t, &ring, i);
		}
		io_uring_cq_advance(&ring, seen);
		record_batch(t->slot, batch);
	}
	io_uring_queue_exit(&ring);
	if (ret < 0 && ret != -EPROTO)	/* -EPROTO: already reported through stress_fail */
		return stress_fail(t->m, "io_uring: %s", strerror(-ret));
	return ret < 0 ? ret : 0;
}

const struct strategy strategy_io_uring = { .name = "io_uring", .serve = serve, .probe = probe };
