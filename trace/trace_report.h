/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_TRACE_REPORT_H
#define KNOTIF_TRACE_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "knotif_trace.h"

/*
 * Phases of a round trip as the kernel saw it. Each needs both of its
 * moments seen; a notification that was interrupted or failed has no
 * phases (its transitions are still counted).
 */
enum phase {
	PHASE_QUEUE_WAIT,	/* queued → sent: until the listener picked it up */
	PHASE_THINK,		/* sent → replied: the supervisor's own work */
	PHASE_WAKE,		/* replied → resumed: wake-up to the target's exit */
	PHASE_ROUND_TRIP,	/* queued → resumed */
	PHASE_COUNT
};

extern const char *const phase_key[PHASE_COUNT];
extern const char *const kind_key[KT_KIND_COUNT];
extern const char *const transition_key[KT_TRANSITION_COUNT];
extern const char *const outcome_key[];

enum event_format { EVENTS_CSV, EVENTS_JSON };

/* Everything collected in one run, filled by report_add(). */
struct report {
	int64_t *phase[KT_KIND_COUNT][PHASE_COUNT];
	size_t n[KT_KIND_COUNT][PHASE_COUNT], cap[KT_KIND_COUNT][PHASE_COUNT];
	uint64_t events[KT_KIND_COUNT];
	FILE *stream;			/* per-notification events, or NULL */
	enum event_format format;
};

/* -1 when a phase is unknown for e */
int64_t event_phase(const struct kt_event *e, enum phase p);

void report_stream_header(struct report *r);
/* Records e's phases and writes it to the stream. -ENOMEM when out of memory. */
int report_add(struct report *r, const struct kt_event *e);

/* The summary a program prints on exit: transition counts, log2 histograms, a phase table. */
void report_print(struct report *r, FILE *out, const uint64_t counts[KT_KIND_COUNT][KT_TRANSITION_COUNT],
		  bool histograms);

/* {"transitions": {...}, "events": n, "phases": {name: {count, min, mean, p50, ...}}} per kind */
json_t *report_json(struct report *r, const uint64_t counts[KT_KIND_COUNT][KT_TRANSITION_COUNT]);

void report_free(struct report *r);

#endif
