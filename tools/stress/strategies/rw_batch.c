// SPDX-License-Identifier: GPL-2.0
/*
 * rw-batch: a thread per listener that read()s every notification pending
 * (up to BATCH) in one call and write()s all their replies in one call:
 * the batched read()/write() of the knotif kernel series
 * (kernel/patches/rfc/0005). Two system calls per batch where the ioctls take
 * two per notification. A write stops at the first reply whose target is
 * gone (ENOENT): that one is counted, and the rest is written again.
 * read() returns 0 once no task uses the filter: the thread is done.
 * Emulating replies only (emulate_only below: the CLI refuses
 * --reply=continue and --toctou with it). With
 * --listener-death the process may leave between two batches, never inside
 * one: what a batch read is counted with its replies.
 * The thread CPU time inside read() and write() is counted apart: what is
 * left of the supervisor's time per notification is its own work, and the
 * write() share holds the wake-up of each target, which no batch removes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "compat.h"
#include "kernel_features.h"
#include "supervisor.h"

#define BATCH 64
#define RESP_SIZE sizeof(struct seccomp_notif_rw_resp)

/* Write resp[0..n), resubmitting after each reply that failed; SERVED or -errno. */
static int reply_all(struct sup_thread *t, int fd, struct seccomp_notif_rw_resp *resp,
		     struct target_slot **target, int n)
{
	int i = 0, ret;

	while (i < n) {
		int64_t cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		ssize_t w = write(fd, &resp[i], (size_t)(n - i) * RESP_SIZE);
		int done = w > 0 ? (int)(w / RESP_SIZE) : 0;

		t->slot->write_cpu_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		t->slot->syscalls++;
		if (w < 0 && errno == EINTR)
			continue;
		for (int j = 0; j < done; j++) {
			ret = account_reply(t, target[i + j], 0);
			if (ret < 0)
				return ret;
		}
		i += done;
		if (w < 0) {	/* the reply at i failed: count it, go on after it */
			ret = account_reply(t, target[i], -errno);
			if (ret < 0)
				return ret;
			i++;
		}
	}
	return SERVED;
}

static int serve(struct sup_thread *t)
{
	size_t rsz = t->buf.req_size;
	struct seccomp_notif_rw_resp resp[BATCH];
	struct target_slot *target[BATCH];
	char *buf;
	int fd = t->fds[0], ret = 0;

	buf = calloc(BATCH, rsz);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		int64_t cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		ssize_t n = read(fd, buf, BATCH * rsz);
		int k;

		t->slot->read_cpu_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		t->slot->syscalls++;
		if (n == 0)		/* no task uses the filter any more */
			break;
		if (n < 0) {
			if (errno == EINTR) {
				t->slot->recv_eintr++;
				continue;
			}
			ret = stress_fail(t->m, "read() on the listener: %s", strerror(errno));
			break;
		}
		k = (int)(n / (ssize_t)rsz);
		death_hold(t);
		for (int i = 0; i < k; i++) {
			const struct seccomp_notif *req = (const void *)(buf + (size_t)i * rsz);
			int64_t seq;

			target[i] = take_notification(t, req, &seq);
			if (!target[i]) {
				death_release(t, -EPROTO);
				ret = -EPROTO;
				goto out;
			}
			memset(&resp[i], 0, sizeof(resp[i]));
			resp[i].id = req->id;
			resp[i].size = SECCOMP_NOTIF_RW_RESP_SIZE_VER0;
			resp[i].val = stress_expect((int)(target[i] - t->m->t), seq);
		}
		record_batch(t->slot, k);
		ret = reply_all(t, fd, resp, target, k);
		death_release(t, ret);
		if (ret < 0)
			break;
		ret = 0;
	}
out:
	free(buf);
	return ret;
}

static int probe(char *why, size_t len)
{
	return feature_probe(FEAT_NOTIF_RW_BATCH, why, len);
}

const struct strategy strategy_rw_batch = {
	.name = "rw-batch",
	.serve = serve,
	.probe = probe,
	.thread_per_listener = true,	/* read() blocks on one listener */
	.emulate_only = true,
};
