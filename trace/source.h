/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe source (enum kt_source): which ones this kernel allows, the one
 * used, which of the skeleton's programs load for it, and loading and
 * attaching them. A source the kernel refuses is said in one line,
 * "knotif-trace: unsupported: ...", and returned as -EOPNOTSUPP.
 */
#ifndef KNOTIF_TRACE_SOURCE_H
#define KNOTIF_TRACE_SOURCE_H

#include <stdbool.h>
#include <stdio.h>

#include "knotif_trace.h"

struct knotif_trace_bpf;

#define SOURCE_AUTO (-1)	/* --source=auto: the first this kernel allows */

/* --source's names, and what each one's timeline is made of */
extern const char *const source_key[KT_SRC_COUNT];
extern const char *const source_detail[KT_SRC_COUNT];

/* The stock-kernel probes, each of which can be attached alone to measure its cost. */
enum sched_probe { PROBE_SYS_EXIT, PROBE_SCHED_SWITCH, PROBE_SCHED_WAKING, SCHED_PROBE_COUNT };
extern const char *const sched_probe_key[SCHED_PROBE_COUNT];

/* Which sources this kernel allows, and why each other one is out. */
struct source_support {
	bool ok[KT_SRC_COUNT];
	char why[KT_SRC_COUNT][200];
};

/*
 * Fills *support and returns the source to use: wanted (an enum kt_source
 * or SOURCE_AUTO), or -EOPNOTSUPP when the kernel does not allow it.
 */
int source_choose(int wanted, struct source_support *support);

/* What the options leave of the source's programs. */
struct probe_options {
	bool follow_forks;		/* --pid or COMMAND: the fork probe grows the traced tree */
	bool ptrace;			/* --kinds includes ptrace */
	unsigned int only_probes;	/* --only-probes: bits of enum sched_probe, 0 = all */
	bool empty_programs;		/* --empty-programs: every probe returns at once */
};

/* Between open and load: only the programs of source, as the options leave them, load. */
void source_set_autoload(struct knotif_trace_bpf *skel, int source, const struct probe_options *po);

/*
 * knotif_trace_bpf__load() and __attach() (and --empty-programs' own
 * programs, trace/empty_probes.h): 0, or -EOPNOTSUPP with the kernel's
 * reason said. source_close() detaches and closes what they made beside
 * the skeleton.
 */
int source_load(struct knotif_trace_bpf *skel, int source);
int source_attach(struct knotif_trace_bpf *skel, int source);
void source_close(void);

/*
 * --prog-stats: the kernel's BPF run-time stats, on while the returned
 * descriptor is open (or -EOPNOTSUPP, said); at the end, each loaded
 * program's runs and mean run time to out.
 */
int prog_stats_enable(void);
void prog_stats_print(const struct knotif_trace_bpf *skel, FILE *out);

#endif
