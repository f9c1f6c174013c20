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
__attribute__((noreturn)) void stress_supervisor_main(const struct config *c, struct stress_mem *m,
						    int sock);

struct stress_supervisor;

/* One supervisor thread and the listeners it serves. */
struct sup_thread {
	struct stress_supervisor *sup;
	struct stress_mem *m;
	int index;
	int *fds;
	int nfds;
	struct notif_buf buf;
	struct sup_slot *slot;
	pthread_t thread;
	int ret;
	bool done;		/* serve() has returned */
};

/* stress_serve_one's outcomes besides -errno */
enum {
	SERVED = 0,		/* a notification was received and answered (or found gone at SEND) */
	SERVE_NONE = 1,		/* RECV found nothing: ENOENT (target left, or the filter has no users) or EINTR */
};

/* RECV one notification on fd and answer it. Counts every system call in t->slot. */
int stress_serve_one(struct sup_thread *t, int fd);
/*
 * The pieces of stress_serve_one for a strategy that receives and answers in its
 * own way (rw-batch): check that req is one of ours and count it (its
 * target, with the request's sequence number in *seq; NULL: the run
 * failed), and count the reply to it (ret: 0 or the reply's -errno; no
 * system call is counted). SERVED or -errno.
 */
struct target_slot *take_notification(struct sup_thread *t, const struct seccomp_notif *req, int64_t *seq);
int account_reply(struct sup_thread *t, struct target_slot *target, int ret);
/*
 * --listener-death: between death_hold() (right after a notification was
 * received) and death_release() (once its reply is counted) the supervisor
 * does not leave, so the threads' and the targets' books agree; release
 * leaves the process once half the run's replies are out (ret: the serve
 * step's result). Both do nothing without --listener-death.
 */
void death_hold(struct sup_thread *t);
void death_release(struct sup_thread *t, int ret);
/* poll(fd, 0): 1 when the listener hung up (no task uses its filter any more). */
int listener_hung_up(struct sup_thread *t, int fd);
/* One wake-up of the strategy that handed it n notifications. */
void record_batch(struct sup_slot *s, int64_t n);
const char *batch_bucket_name(int bucket);

/*
 * How supervisor threads wait for notifications. One file each in
 * strategies/, defining `const struct strategy strategy_<name>`, and one line
 * in strategies/registry.c; the CLI, --help, the run names and the tests
 * (one ledger test per strategy) all come from that table.
 */
struct strategy {
	const char *name;		/* --strategy=NAME, and in every run name */
	/* Serves t->fds until every one has hung up. 0 or -errno. */
	int (*serve)(struct sup_thread *t);
	/* NULL: runs anywhere; else 0, or -errno with the reason in why */
	int (*probe)(char *why, size_t len);
	/* per-target topology: one thread per listener, whatever --threads says */
	bool thread_per_listener;
	/*
	 * Sleeps in the RECV ioctl, which before Linux 6.11 does not return
	 * when the last task using the filter exits: the main thread wakes it
	 * then (end_blocked_receivers()). read() on a listener returns 0 there.
	 */
	bool recv_sleeps_past_hangup;
	/* answers emulating replies only: no --reply=continue, --toctou */
	bool emulate_only;
};

/* The registry: index = struct config's strategy. */
int strategy_count(void);
const struct strategy *strategy_at(int i);
/* The index of name, or -1. */
int strategy_find(const char *name);
/* 0 when strategy i can run here; otherwise the reason in why. */
int strategy_probe(int i, char *why, size_t len);

#endif
