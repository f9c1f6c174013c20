/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STATS_H
#define KNOTIF_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Distribution of one set of samples, in the samples' unit (ns). */
struct summary {
	size_t n;
	int64_t min, max;
	double mean;
	double stddev;		/* sample standard deviation (n - 1); 0 when n < 2 */
	double p50, p90, p99, p999;
};

/*
 * Quantile q (0..1) of sorted[0..n-1], linear between the closest ranks
 * (Hyndman & Fan type 7, numpy's default), so results match numpy.quantile.
 */
double quantile_sorted(const int64_t *sorted, size_t n, double q);

/* Sorts samples in place and fills *s. Returns -EINVAL when n == 0. */
int summarize(int64_t *samples, size_t n, struct summary *s);

/* Across repetitions (Google Benchmark's aggregates). */
double mean_of(const double *v, size_t n);
double median_of(const double *v, size_t n);	/* v is not modified */
double stddev_of(const double *v, size_t n);	/* sample (n - 1); 0 when n < 2 */

#endif
