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

/*
 * The family a method belongs to. It is written as "kind" on every JSON row,
 * so readers (the gate, the report) never guess it from a name.
 */
enum method_kind {
	KIND_IN_KERNEL,		/* the kernel decides; no interceptor runs */
	KIND_SIGSYS,		/* a SIGSYS handler in the target answers */
	KIND_UNOTIF,		/* a supervisor process answers through a seccomp listener */
	KIND_PTRACE,		/* the target's tracer answers at a ptrace stop */
	KIND_SHARED_MEMORY,	/* SIGSYS hands the call to a supervisor through shared memory */
	KIND_FLOOR,		/* no interception: the ping-pong every round trip is held against */
	KIND_COUNT
};

const char *method_kind_name(enum method_kind k);

struct method {
	const char *name;		/* "unotif/sync/emulate" */
	enum method_kind kind;
	/*
	 * The knotif-trace summary kind ("unotif", "ptrace") that holds this
	 * method's phases under --trace; NULL when knotif-trace does not
	 * understand the method.
	 */
	const char *trace_kind;
	enum feature needs[3];		/* run only when each probes fine (FEAT_COUNT ends) */
	/*
	 * Milliseconds a call, not microseconds: left out of a run unless a
	 * --benchmark_filter names it (the default suite stays seconds long).
	 */
	bool on_request;
	const void *variant;		/* the method file's own description of this variant */
	size_t state_size;		/* zeroed per run at b->state, before sup_prepare */
	/* Supervisor, before forking the target: sockets, memfds, pipes. */
	int (*sup_prepare)(struct bench *b);
	/* Target, pinned, before timing: install the interception. -errno */
	int (*target_setup)(struct bench *b);
	/* One intercepted call; its result is checked by check(). */
	long (*call)(struct bench *b);
	/* 0 when ret is what this method must return, else -EPROTO with the reason (bench_fail). */
	int (*check)(struct bench *b, long ret);
	/* Target, after timing: release the supervisor (e.g. the stop cookie). */
	void (*target_finish)(struct bench *b);
	/* Supervisor, after forking: serve until the target is done. -errno */
	int (*supervise)(struct bench *b);
	/*
	 * NULL, or the names of the steps the supervisor times in each call
	 * (NULL-terminated, BENCH_MAX_STEPS at most; bench_steps_add()): each
	 * becomes a counter step:<name>_ns, its mean per call in the repetition.
	 */
	const char *const *steps;
};

#define BENCH_MAX_STEPS 16

/* Per repetition, written by the target. */
struct rep_result {
	int64_t iterations;
	int64_t wall_ns;		/* whole timed loop */
	int64_t cpu_ns;			/* target process CPU time over the loop */
	/* counters over the loop (counters.h), -1 when unavailable */
	int64_t ctx_switches;		/* target + supervisor */
	int64_t preemptions;		/* of those, involuntary (procfs only) */
	int64_t migrations;		/* target + supervisor */
	int64_t sup_cpu_ns;		/* supervisor CPU time */
	/* the method's steps over the loop (method.steps), and the calls they were timed in */
	int64_t step_ns[BENCH_MAX_STEPS];
	int64_t step_calls;
};

#define BENCH_MAX_REPS 1000
#define BENCH_ERROR_LEN 256

/* Lives in a MAP_SHARED mapping: target, supervisor and the bench process all see it. */
struct bench_shared {
	int64_t timer_ns;		/* cost of one back-to-back now_ns() pair */
	int64_t warmup;			/* untimed calls before repetition 0 */
	int counters_source;		/* enum counters_source */
	bool target_mlocked;		/* mlockall() held in each process (page faults */
	bool sup_mlocked;		/* on either side reach the round trip) */
	int reps_done;
	int64_t progress_ns;		/* now_ns() when the last repetition finished (or the run started) */
	int fail_claimed;		/* set once, atomically, by the first bench_fail() */
	char error[BENCH_ERROR_LEN];	/* first failure, from any of the processes */
	/*
	 * The supervisor's running totals of its timed steps (bench_steps_add(),
	 * before it replies); the target takes a repetition's share from them
	 * at its start and end, so warm-up calls count in none.
	 */
	int64_t step_total_ns[BENCH_MAX_STEPS];
	int64_t step_total_calls;
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

	/* set by the harness in the supervisor and the target */
	pid_t sup_pid, target_pid;
	bool target_reaped;		/* a ptrace supervisor waited for it: target_status holds how it ended */
	int target_status;
	/* the method's own state (m->state_size bytes), inherited by the target */
	void *state;
};

/*
 * Supervisor, in a call and before its reply: adds one call's steps, from
 * the moments at[0..nsteps] (now_ns(); step i is at[i + 1] - at[i]), to
 * the running totals. A call whose moments are not all set is not counted.
 */
void bench_steps_add(struct bench *b, const int64_t *at, int nsteps);

/* The registry (methods/registry.c): every method, in report order. */
int method_count(void);
const struct method *method_at(int i);

#endif
