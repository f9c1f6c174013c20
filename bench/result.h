/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RESULT_H
#define KNOTIF_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "bench.h"
#include "stats.h"

/* The figures of one repetition; NAN where unknown. Keys are the JSON counter names. */
enum figure {
	FIG_REAL,		/* mean round trip, ns (GB real_time) */
	FIG_CPU,		/* target CPU time per op, ns (GB cpu_time) */
	/* the latency counters, in gbjson.h's order (gb_latency_key) */
	FIG_MIN, FIG_P50, FIG_P90, FIG_P99, FIG_P999, FIG_MAX, FIG_STDDEV,
	FIG_OPS,		/* round trips per second */
	FIG_CS,			/* context switches per op, target + supervisor */
	FIG_PREEMPT,		/* of those, involuntary (a wake-up or tick preempted) */
	FIG_MIG,		/* migrations per op, target + supervisor */
	FIG_SUP_CPU,		/* supervisor CPU time per op, ns */
	FIG_FLOOR,		/* p50 / floor p50 at the same placement */
	FIG_COUNT
};

/* The figure's JSON key. */
const char *figure_key(enum figure f);

enum result_status { RESULT_OK, RESULT_UNSUPPORTED, RESULT_FAILED, RESULT_SKIPPED };

struct result {
	char name[160];
	const struct method *m;
	enum placement placement;
	int cpus[2];
	bool selected;			/* matched --benchmark_filter (floors also run unselected) */
	enum result_status status;
	char message[BENCH_ERROR_LEN];	/* "unsupported: …" or the failure */
	int reps;
	int64_t iterations;		/* per repetition */
	int64_t timer_ns;
	int64_t warmup;			/* untimed round trips before the first repetition */
	double fig[BENCH_MAX_REPS][FIG_COUNT];
	/* the method's timed steps (method.steps), mean ns per call; NAN where no call was timed */
	double step[BENCH_MAX_REPS][BENCH_MAX_STEPS];
};

/* Fills r->fig[rep] from the repetition's sorted-on-the-way samples and counters. */
void result_add_rep(struct result *r, int rep, int64_t *samples, const struct rep_result *rr);

/* floor_ratio of every result against the fastest pingpong of its placement. */
void results_apply_floor(struct result *res, int n);

/* The figure a person reads: the median over repetitions (or the one repetition). */
double result_headline(const struct result *r, enum figure f);

/* GB rows (iterations + aggregates) of the selected results. */
json_t *results_to_rows(const struct result *res, int n);
/*
 * context.knotif.floor: per placement whose ping-pongs ran, the floor's
 * benchmark and p50 and the ping-pongs that did not block; when none
 * qualified, benchmark and p50 are null and "reason" says why (the rows of
 * that placement then carry no floor_ratio).
 */
json_t *results_floor_context(const struct result *res, int n);
void results_print_console(const struct result *res, int n, FILE *out);

#endif
