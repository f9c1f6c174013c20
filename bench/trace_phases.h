/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_BENCH_TRACE_PHASES_H
#define KNOTIF_BENCH_TRACE_PHASES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * knotif-bench --trace: knotif-trace (beside knotif-bench) runs around each
 * unotif and ptrace-seccomp benchmark, following the benchmark's forked
 * supervisor and target, and its kernel-side phase breakdown joins the
 * results: counters trace_<phase>_p50 on the rows, a table on the console.
 * The round trips of a traced run carry the tracer's overhead.
 */
struct trace_phases;

/* Dies with the reason when knotif-trace is missing. */
struct trace_phases *trace_phases_new(void);
/* A selected benchmark whose method knotif-trace cannot follow (method.trace_kind NULL). */
void trace_phases_not_understood(struct trace_phases *t, const char *benchmark);
/* Starts knotif-trace and waits until it is attached. Dies when it cannot start. */
void trace_phases_begin(struct trace_phases *t);
/*
 * Stops it (when running) and keeps the summary's trace_kind part as
 * benchmark's (NULL: a failed run, dropped).
 */
void trace_phases_end(struct trace_phases *t, const char *benchmark, const char *trace_kind);
/* Counters on the rows of traced benchmarks; context.knotif.trace. */
void trace_phases_annotate(const struct trace_phases *t, json_t *rows, json_t *context);
void trace_phases_print(const struct trace_phases *t, FILE *out);
void trace_phases_free(struct trace_phases *t);

#endif
