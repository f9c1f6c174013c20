/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_SUPERVISOR_H
#define KNOTIF_STRESS_SUPERVISOR_H

#include <pthread.h>

#include "notif.h"
#include "stress.h"

/*
 * The supervisor process: receives every listener over sock, serves them
 * with the configured strategy on its threads until every listener has hung
 * up (all the tasks behind its filter are gone), then closes them and counts
 * its descriptors again. Never returns.
 */
__attribute__((noreturn)) void supervisor_main(const struct config *c, struct stress_mem *m, int sock);

struct supervisor;

/* One supervisor thread and the listeners it serves. */
struct sup_thread {
	struct supervisor *sup;
	struct stress_mem *m;
	int index;
	int *fds;
	int nfds;
	struct notif_buf buf;
	struct sup_slot *slot;
	pthread_t thread;
	int ret;
};

/* serve_one's outcomes besides -errno */
enum {
	SERVED = 0,		/* a notification was received and answered (or found gone at SEND) */
	SERVE_NONE = 1,		/* RECV found nothing: ENOENT (target left, or the filter has no users) or EINTR */
};

/* RECV one notification on fd and answer it. Counts every system call in t->slot. */
int serve_one(struct sup_thread *t, int fd);
/* poll(fd, 0): 1 when the listener hung up (no task uses its filter any more). */
int listener_hung_up(struct sup_thread *t, int fd);
/* One wake-up of the strategy that handed it n notifications. */
void record_batch(struct sup_slot *s, int64_t n);
const char *batch_bucket_name(int bucket);

/* A strategy serves t->fds until every one has hung up. 0 or -errno. */
struct strategy {
	enum strategy_id id;
	int (*serve)(struct sup_thread *t);
};

extern const struct strategy strategy_blocking, strategy_poll, strategy_epoll, strategy_io_uring,
	strategy_spin;

/* 0 when io_uring can be set up here; otherwise -errno and the reason in why. */
int io_uring_probe(char *why, size_t len);
/* 0 when the strategy can run here; otherwise the reason in why. */
int strategy_probe(enum strategy_id s, char *why, size_t len);

#endif
