/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_SYSINFO_H
#define KNOTIF_SYSINFO_H

#include <jansson.h>
#include <stdbool.h>

/* Facts about the machine a result was measured on. */
const char *sysinfo_cpu_model(void);	/* "unknown" when /proc/cpuinfo says nothing */
long sysinfo_cpu_mhz(void);		/* 0 when unknown */
bool sysinfo_cpu_scaling(void);		/* a cpufreq governor other than performance */
const char *sysinfo_clocksource(void);	/* e.g. "tsc", "kvm-clock" */
bool sysinfo_clock_in_vdso(void);	/* false: clock_gettime is a real syscall here */
json_t *sysinfo_caches(void);		/* GB's caches[]: type, level, size, num_sharing */
/*
 * This process's locked memory (VmLck, kB), -1 when unknown: mlockall()
 * returning 0 proves nothing under a sanitizer runtime, which intercepts it.
 */
long sysinfo_locked_kb(void);

#endif
