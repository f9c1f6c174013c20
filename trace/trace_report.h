/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_TRACE_REPORT_H
#define KNOTIF_TRACE_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "knotif_trace.h"

/* What the kernel side aggregated, summed over CPUs: one read. */
struct trace_snapshot {
	struct kt_counts c;
	struct kt_hist h[KT_KIND_COUNT][KT_PHASE_COUNT];
};

extern const char *const phase_key[KT_PHASE_COUNT];
extern const char *const kind_key[KT_KIND_COUNT];
extern const char *const transition_key[KT_TRANSITION_COUNT];
extern const char *const outcome_key[];

enum event_format { EVENTS_CSV, EVENTS_JSON };

/* The per-notification stream (--events), filled by report_add(). */
struct report {
	uint64_t events[KT_KIND_COUNT];
	FILE *stream;
	enum event_format format;
};

/* -1 when phase p is unknown for e (the rules the kernel side applies to its histograms) */
int64_t event_phase(const struct kt_event *e, enum kt_phase p);

void report_stream_header(struct report *r);
/* Writes e to the stream. -EPROTO for a record that cannot be ours. */
int report_add(struct report *r, const struct kt_event *e);

/*
 * The summary a program prints on exit (or per interval): transition
 * counts, log2 histograms, a phase table.
 */
void report_print(const struct trace_snapshot *s, FILE *out, bool histograms);

/*
 * {"transitions": {...}, "events": n, "phases": {name: {count, min, mean,
 * p50, ...}}} per kind
 */
json_t *report_json(const struct trace_snapshot *s);

#endif
