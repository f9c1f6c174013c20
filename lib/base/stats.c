// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double quantile_sorted(const int64_t *sorted, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (n == 0)
		return NAN;
	if (q <= 0)
		return (double)sorted[0];
	if (q >= 1)
		return (double)sorted[n - 1];
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return (double)sorted[n - 1];
	return (double)sorted[lo] + frac * (double)(sorted[lo + 1] - sorted[lo]);
}

int summarize(int64_t *samples, size_t n, struct summary *s)
{
	long double sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return -EINVAL;
	qsort(samples, n, sizeof(*samples), cmp_i64);
	for (size_t i = 0; i < n; i++)
		sum += samples[i];
	s->n = n;
	s->mean = (double)(sum / n);
	/* two passes: the one-pass formula loses digits when σ ≪ mean */
	for (size_t i = 0; i < n; i++) {
		long double d = samples[i] - (long double)s->mean;

		sq += d * d;
	}
	s->stddev = n > 1 ? sqrt((double)(sq / (n - 1))) : 0;
	s->min = samples[0];
	s->max = samples[n - 1];
	s->p50 = quantile_sorted(samples, n, 0.50);
	s->p90 = quantile_sorted(samples, n, 0.90);
	s->p99 = quantile_sorted(samples, n, 0.99);
	s->p999 = quantile_sorted(samples, n, 0.999);
	return 0;
}

double mean_of(const double *v, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double median_of(const double *v, size_t n)
{
	double *copy, m;

	if (n == 0)
		return NAN;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return NAN;
	memcpy(copy, v, n * sizeof(*copy));
	qsort(copy, n, sizeof(*copy), cmp_double);
	m = n % 2 ? copy[n / 2] : (copy[n / 2 - 1] + copy[n / 2]) / 2;
	free(copy);
	return m;
}

double stddev_of(const double *v, size_t n)
{
	double mean = mean_of(v, n), sq = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	return sqrt(sq / (double)(n - 1));
}
