// SPDX-License-Identifier: GPL-2.0
#include "mannwhitney.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double v;
	size_t i;	/* position in the pooled sample */
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * Average ranks (1-based) of the pooled sample into rank[], and the tie
 * term Σ(t³ − t) over groups of t equal values.
 */
static int rank_pooled(const double *x, size_t n1, const double *y, size_t n2,
		       double *rank, double *tie_term)
{
	size_t n = n1 + n2;
	struct ranked *r = malloc(n * sizeof(*r));

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){ i < n1 ? x[i] : y[i - n1], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	*tie_term = 0;
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		double t, avg;

		for (hi = lo + 1; hi < n && r[hi].v == r[lo].v; hi++)
			;
		t = (double)(hi - lo);
		avg = ((double)lo + 1 + (double)hi) / 2;	/* mean of ranks lo+1 .. hi */
		for (size_t k = lo; k < hi; k++)
			rank[r[k].i] = avg;
		*tie_term += t * t * t - t;
	}
	free(r);
	return 0;
}

/*
 * Number of arrangements giving each U = 0 .. n1·n2 under the null: the
 * coefficients of the Gaussian binomial [n1+n2 choose n1]_q, built as
 * Π_{i=1..n1} (1 − q^(n2+i)) / (1 − q^i). After each factor the
 * polynomial is again a Gaussian binomial, so coefficients stay whole.
 */
static long double *u_counts(size_t n1, size_t n2)
{
	size_t len = n1 * n2 + 1;
	long double *c = calloc(len, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 1; i <= n1; i++) {
		size_t up = n2 + i;

		for (size_t k = len; k-- > up;)	/* × (1 − q^up) */
			c[k] -= c[k - up];
		for (size_t k = i; k < len; k++)	/* ÷ (1 − q^i) */
			c[k] += c[k - i];
	}
	return c;
}

/* P(U ≥ u) under the null, u a whole number; scipy's _MWU.sf. */
static double exact_sf(double u, size_t n1, size_t n2)
{
	long double *c = u_counts(n1, n2), total = 0, tail = 0;
	size_t kmax;

	if (!c)
		return NAN;
	/* the distribution is symmetric: P(U ≥ u) = P(U ≤ n1·n2 − u) */
	kmax = (size_t)((double)(n1 * n2) - u);
	for (size_t k = 0; k <= n1 * n2; k++) {
		total += c[k];
		if (k <= kmax)
			tail += c[k];
	}
	free(c);
	return (double)(tail / total);
}

int mann_whitney_u(const double *x, size_t n1, const double *y, size_t n2, struct mwu *out)
{
	size_t n = n1 + n2;
	double *rank, tie_term, r1 = 0, u1, u2, u, p;
	int err;

	memset(out, 0, sizeof(*out));
	if (!n1 || !n2)
		return -EINVAL;
	for (size_t i = 0; i < n1; i++)
		if (isnan(x[i]))
			return -EINVAL;
	for (size_t i = 0; i < n2; i++)
		if (isnan(y[i]))
			return -EINVAL;
	rank = malloc(n * sizeof(*rank));
	if (!rank)
		return -ENOMEM;
	err = rank_pooled(x, n1, y, n2, rank, &tie_term);
	if (err) {
		free(rank);
		return err;
	}
	for (size_t i = 0; i < n1; i++)
		r1 += rank[i];
	free(rank);
	u1 = r1 - (double)n1 * ((double)n1 + 1) / 2;
	u2 = (double)n1 * (double)n2 - u1;
	u = fmax(u1, u2);

	out->u1 = u1;
	out->exact = (n1 <= 8 || n2 <= 8) && tie_term == 0;
	if (out->exact) {
		p = 2 * exact_sf(u, n1, n2);
	} else {
		double nn = (double)n;
		double s = sqrt((double)n1 * (double)n2 / 12 * ((nn + 1) - tie_term / (nn * (nn - 1))));
		double z = (u - (double)n1 * (double)n2 / 2 - 0.5) / s;

		/* 2 · sf(z) of the standard normal; all values tied gives s = 0, p = 1 */
		p = s > 0 ? erfc(z / M_SQRT2) : 1;
	}
	out->pvalue = fmin(fmax(p, 0), 1);
	return 0;
}

double mann_whitney_min_pvalue(size_t n1, size_t n2)
{
	double *v;
	struct mwu r;

	if (!n1 || !n2)
		return 1;
	v = malloc((n1 + n2) * sizeof(*v));
	if (!v)
		return 1;
	for (size_t i = 0; i < n1 + n2; i++)
		v[i] = (double)i;
	if (mann_whitney_u(v, n1, v + n1, n2, &r))
		r.pvalue = 1;
	free(v);
	return r.pvalue;
}
