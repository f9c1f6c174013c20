/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_COUNTERS_H
#define KNOTIF_COUNTERS_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/*
 * Context switches, migrations and supervisor CPU time over a timed loop,
 * for the target and its supervisor.
 *
 * procfs (the default) reads the kernel's own per-task accounting before
 * and after the loop — /proc/PID/status (voluntary + nonvoluntary context
 * switches), /proc/PID/sched (se.nr_migrations; needs CONFIG_SCHED_DEBUG)
 * and the supervisor's CPU-time clock — so nothing runs inside the loop.
 *
 * perf (--counters=perf) opens perf_event_open software counters on both
 * tasks instead. They count the same things, but an enabled event costs
 * time at every context switch of its task, inside the round trip being
 * timed: results/bench/counters.md measures how much. Where perf is
 * refused, procfs is used and the context says so.
 */
enum counters_source {
	COUNTERS_PROCFS,
	COUNTERS_PERF,
	COUNTERS_SOURCE_COUNT
};

struct counters {
	enum counters_source source;
	pid_t pid[2];			/* [target, supervisor] */
	int fd[2][3];			/* perf: [task][switches, migrations, task-clock] */
	clockid_t sup_clock;		/* procfs: the supervisor's CPU-time clock */
	int64_t start[2][4];		/* procfs: readings before the loop (+ involuntary switches) */
};

struct counters_value {
	int64_t ctx_switches, migrations, sup_cpu_ns;	/* -1: unknown */
	/*
	 * Involuntary switches (procfs' nonvoluntary_ctxt_switches): a task
	 * preempted, e.g. by the task its wake-up made runnable. perf has no
	 * such count: -1 with COUNTERS_PERF.
	 */
	int64_t preemptions;
};

/* Opens the wanted source; falls back to procfs when perf is refused. */
void counters_open(struct counters *c, enum counters_source wanted, pid_t supervisor);
void counters_start(struct counters *c);
void counters_stop(struct counters *c, struct counters_value *v);
void counters_close(struct counters *c);
const char *counters_source_name(enum counters_source s);
/* "procfs" | "perf" -> 0 and *s; else -1 */
int counters_source_parse(const char *name, enum counters_source *s);

#endif
