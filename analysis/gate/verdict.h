/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_VERDICT_H
#define KNOTIF_VERDICT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "gbread.h"
#include "mannwhitney.h"

/*
 * The gate's decision for each benchmark the two files share. A benchmark
 * regresses when the median of its gated figure over repetitions grows by
 * more than the threshold AND the U test finds the two sets of
 * repetitions different (p < alpha); --deterministic results (icount)
 * need no U test. Improvements are reported, never failed.
 */
/* What to do with the floor rows (pingpong/...) when the metric is floor_ratio. */
enum floor_policy {
	FLOOR_AUTO,		/* gate their p50 when both files come from one host */
	FLOOR_GATE,		/* always gate their p50 */
	FLOOR_REPORT,		/* never gate: a floor's absolute time follows machine load */
};

struct gate_options {
	enum gb_figure metric;	/* the gated figure (default floor_ratio) */
	enum floor_policy floor;
	/*
	 * GB_FIGURE_COUNT, or a second figure a regression must also show
	 * (beyond the threshold, p < alpha): floor_ratio confirmed by p50 cannot
	 * be fooled by a floor that moved with the machine's load.
	 */
	enum gb_figure confirm;
	/* benchmarks to compare and show but never gate (NULL: none) */
	const regex_t *report_only;
	double threshold;	/* +0.5 = fail above +50 % */
	double alpha;
	bool deterministic;
};

enum verdict {
	VERDICT_PASS,
	VERDICT_REGRESSION,
	VERDICT_IMPROVED,
	VERDICT_UNSURE,		/* beyond the threshold but not significant */
	VERDICT_UNCONFIRMED,	/* a regression the confirming figure does not show */
	VERDICT_REPORT_ONLY,	/* compared, not gated (e.g. the floor across hosts) */
	VERDICT_TOO_FEW,	/* the U test cannot reach alpha with these repetitions */
	VERDICT_ERROR,		/* an error/unsupported row on either side: listed */
	VERDICT_ONLY_BASE,
	VERDICT_ONLY_NEW,
};

const char *verdict_name(enum verdict v);
/* counted as "compared": a verdict on the figures themselves */
bool verdict_gated(enum verdict v);

/* The figures shown beside the gated one: median over repetitions. */
enum { SHOWN_P50, SHOWN_P99, SHOWN_MEAN, SHOWN_COUNT };

struct comparison {
	const char *name;
	enum verdict verdict;
	enum gb_figure metric;	/* may differ from the option for floor rows */
	size_t reps_base, reps_new;
	double base, new;	/* medians of the gated figure */
	double change;		/* new / base − 1 */
	double shown_base[SHOWN_COUNT], shown_new[SHOWN_COUNT];
	bool have_u;
	struct mwu u;
	char note[256];		/* why: error message, fallback metric, ... */
};

struct gate_result {
	struct comparison *c;
	size_t count;
	size_t regressions, improvements, gated;
	bool same_host;
	size_t few_reps;	/* benchmarks compared with < 9 repetitions on a side */
};

/* Fills r; -ENOMEM on failure. */
int gate_compare(const struct gb_file *base, const struct gb_file *new,
		 const struct gate_options *o, struct gate_result *r);
void gate_result_free(struct gate_result *r);

/* compare.py's advice: fewer repetitions make the U test unreliable */
#define GATE_OPTIMAL_REPETITIONS 9

#endif
