/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_CPU_H
#define KNOTIF_CPU_H

#include <stdbool.h>

/*
 * Where the two ends of a round trip run. Cross-CPU wake-ups dominate the
 * cost of every method here (an IPI per hand-over), so placement is always
 * chosen and always reported.
 */
enum placement {
	PLACEMENT_SAME,		/* both ends pinned to one CPU */
	PLACEMENT_CROSS,	/* one CPU each */
	PLACEMENT_FREE,		/* unpinned: the scheduler decides */
	PLACEMENT_COUNT
};

const char *placement_name(enum placement p);
/* -EINVAL for a name that is none of same|cross|free */
int placement_parse(const char *name, enum placement *out);

/*
 * The CPUs that ends 0 (target) and 1 (supervisor) use under p, chosen from
 * the calling process's affinity mask; -1 means unpinned. Returns -ENODEV,
 * with a reason in why, when the mask is too small (cross needs 2 CPUs).
 */
int placement_cpus(enum placement p, int cpus[2], char *why, unsigned long why_len);

/* Pin the calling thread to cpu (no-op for -1: restore the whole mask). Returns -errno. */
int pin_to(int cpu);

/* Remember the process's affinity at start, before any pinning. */
void cpu_init(void);

#endif
