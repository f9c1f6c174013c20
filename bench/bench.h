/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_BENCH_H
#define KNOTIF_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpu.h"
#include "kernel_features.h"
#include "syscalls.h"

/*
 * One benchmark = one method (with its variants) at one placement. Its run
 * forks a supervisor, which forks the target (ptrace needs the supervisor to
 * be the tracer, i.e. the parent). The target times every round trip with
 * CLOCK_MONOTONIC and checks every returned value; samples and counters go
 * back through a shared mapping.
 */

/* What an emulating supervisor returns: a value the real syscall never gives. */
#define BENCH_MAGIC 0x4b4e4f54L	/* "KNOT" */
/* arg0 of the target's last call: tells a notification supervisor to stop. */
#define BENCH_STOP_COOKIE 0x53544f50UL	/* "STOP" */

struct bench;

/* How an interceptor answers the trapped call. */
enum reply {
	REPLY_EMULATE,		/* skip the syscall, return BENCH_MAGIC */
	REPLY_CONTINUE,		/* let the kernel run the syscall */
	REPLY_ADDFD,		/* return a descriptor installed in the target */
};

struct method {
	const char *name;		/* "unotif/sync/emulate" */
	enum feature needs[3];		/* run only when each probes fine (FEAT_COUNT ends) */
	enum reply reply;
	bool sync_wake;			/* unotif: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP */
	bool rw_protocol;		/* unotif: read()/write() on the listener (v3 series) */
	bool listener_via_ptrace;	/* unotif: PTRACE_SECCOMP_GET_LISTENER, not SCM_RIGHTS */
	bool trace_syscalls;		/* ptrace: PTRACE_SYSCALL instead of seccomp stops */
	/* Supervisor, before forking the target: sockets, memfds, pipes. */
	int (*sup_prepare)(struct bench *b);
	/* Target, pinned, before timing: install the interception. -errno */
	int (*target_setup)(struct bench *b);
	/* One intercepted call; its result is checked by check(). */
	long (*call)(struct bench *b);
	/* 0 when ret is what this method must return, else -EPROTO with b->error set. */
	int (*check)(struct bench *b, long ret);
	/* Target, after timing: release the supervisor (e.g. the stop cookie). */
	void (*target_finish)(struct bench *b);
	/* Supervisor, after forking: serve until the target is done. -errno */
	int (*supervise)(struct bench *b);
};

/* Per repetition, written by the target. */
struct rep_result {
	int64_t iterations;
	int64_t wall_ns;		/* whole timed loop */
	int64_t cpu_ns;			/* target process CPU time over the loop */
	/* counters over the loop (counters.h), -1 when unavailable */
	int64_t ctx_switches;		/* target + supervisor */
	int64_t migrations;		/* target + supervisor */
	int64_t sup_cpu_ns;		/* supervisor CPU time */
};

#define BENCH_MAX_REPS 1000
#define BENCH_ERROR_LEN 256

/* Lives in a MAP_SHARED mapping: target, supervisor and the bench process all see it. */
struct bench_shared {
	int64_t timer_ns;		/* cost of one back-to-back now_ns() pair */
	int64_t warmup;			/* untimed calls before repetition 0 */
	int counters_source;		/* enum counters_source */
	bool mlocked;
	uint32_t futex_word;		/* pingpong/futex */
	int reps_done;
	char error[BENCH_ERROR_LEN];	/* first failure, from either side */
	struct rep_result rep[BENCH_MAX_REPS];
	/* samples: rep r at samples[r * per_rep_cap] */
	int64_t samples[];
};

struct bench {
	const struct method *m;
	enum placement placement;
	int cpus[2];			/* target, supervisor; -1 = unpinned */
	const struct syscall_desc *sys;
	long real_value;		/* the syscall's result without interception */
	int reps;
	int64_t samples_per_rep;
	int64_t per_rep_cap;		/* room per repetition in shared->samples */
	double min_time_s;		/* 0: exactly samples_per_rep */
	int counters_wanted;		/* enum counters_source */
	struct bench_shared *shared;

	/* method state: set in sup_prepare (before the fork) or in the target */
	pid_t sup_pid, target_pid;
	int sock[2];			/* target → supervisor: the listener fd */
	int listener;
	int fds[4];
	uint64_t expect_ino, expect_dev;
	volatile uint32_t *futex_word;
	int64_t token;
};

/* Printf into b->shared->error (first writer wins). Returns -EPROTO for chaining. */
__attribute__((format(printf, 2, 3)))
int bench_fail(struct bench *b, const char *fmt, ...);

/* All methods, in report order. */
extern const struct method *const methods[];
extern const int method_count;

#endif
