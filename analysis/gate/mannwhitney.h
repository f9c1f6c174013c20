/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_MANNWHITNEY_H
#define KNOTIF_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Two-sided Mann–Whitney U test, computed the way scipy.stats.mannwhitneyu
 * (scipy 1.10, the version Google Benchmark's compare.py calls) computes it
 * with its defaults (use_continuity=True, method='auto'):
 *   - exact distribution of U when either sample has at most 8 values and
 *     there are no ties in the pooled data;
 *   - otherwise the normal approximation, with the tie correction of the
 *     variance and a 1/2 continuity correction.
 */
struct mwu {
	double u1;		/* U of the first sample (scipy's statistic) */
	double pvalue;		/* two-sided, in [0, 1] */
	bool exact;		/* which method gave pvalue */
};

/* 0, or -EINVAL when a sample is empty or holds a NaN; -ENOMEM. */
int mann_whitney_u(const double *x, size_t n1, const double *y, size_t n2, struct mwu *out);

/*
 * The smallest two-sided p-value any data of these sizes can give (both
 * samples fully separated, no ties): a test that cannot go below alpha can
 * never call a difference significant, and a gate must say so.
 */
double mann_whitney_min_pvalue(size_t n1, size_t n2);

#endif
