/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_CLOCK_H
#define KNOTIF_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000LL

/*
 * CLOCK_MONOTONIC through the vDSO: no system call, so it is never seen by
 * seccomp, ptrace or Syscall User Dispatch, and it counts the time a target
 * spends blocked on its supervisor (a CPU clock would not).
 */
static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static inline int64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

#endif
