/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HARNESS_H
#define KNOTIF_HARNESS_H

#include <stdbool.h>

#include "bench.h"

/*
 * Runs one benchmark: forks the supervisor (which forks the target), waits
 * at most timeout_s seconds, and leaves samples and counters in b->shared.
 * Returns 0, or -errno with the reason in b->shared->error.
 */
int harness_run(struct bench *b, int timeout_s);

/* Printf into b->shared->error (first writer wins). Returns -EPROTO for chaining. */
__attribute__((format(printf, 2, 3)))
int bench_fail(struct bench *b, const char *fmt, ...);

/* The least time between two back-to-back now_ns() reads, in ns. */
int64_t timer_overhead(void);

/*
 * For supervisors that block in a call the target's death would not end
 * (RECV, FUTEX_WAIT): a SIGCHLD handler without SA_RESTART turns that death
 * into EINTR, after which target_exited() says whether to stop.
 * ptrace supervisors do not use it: every ptrace stop would raise a signal.
 */
void watch_target_exit(void);
bool target_exited(const struct bench *b);

/*
 * ptrace supervisors reap the target themselves; they hand its wait status
 * to the harness here.
 */
void harness_target_reaped(struct bench *b, int status);

#endif
