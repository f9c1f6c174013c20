/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_COUNTERS_H
#define KNOTIF_COUNTERS_H

#include <stdint.h>
#include <sys/types.h>

/*
 * Context switches, migrations and supervisor CPU time over a timed loop,
 * from perf_event_open software counters on the target and its supervisor.
 * Where perf is refused (perf_event_paranoid, no ptrace access to the
 * supervisor) getrusage() counts the target's own context switches only.
 */
enum counters_source {
	COUNTERS_PERF,
	COUNTERS_RUSAGE,	/* target only; migrations and supervisor CPU unknown */
};

struct counters {
	enum counters_source source;
	int fd[2][3];		/* [target, supervisor][ctx, migrations, task-clock] */
	int64_t rusage_csw;
};

struct counters_value {
	int64_t ctx_switches, migrations, sup_cpu_ns;	/* -1: unknown */
};

void counters_open(struct counters *c, pid_t supervisor);
void counters_start(struct counters *c);
void counters_stop(struct counters *c, struct counters_value *v);
void counters_close(struct counters *c);
const char *counters_source_name(enum counters_source s);

#endif
