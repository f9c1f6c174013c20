// SPDX-License-Identifier: GPL-2.0
/*
 * lib/stats against known arrays. Expected values are numpy's
 * (np.quantile default "linear" method, np.std with ddof=1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static int failures;

static void expect(const char *what, double got, double want)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1)) {
		printf("not ok: %s = %.12g, want %.12g\n", what, got, want);
		failures++;
	}
}

static void expect_summary(const char *name, int64_t *v, size_t n, double mean, double sd,
			   double p50, double p90, double p99, double p999, int64_t min, int64_t max)
{
	struct summary s;
	char what[128];

	if (summarize(v, n, &s)) {
		printf("not ok: %s: summarize failed\n", name);
		failures++;
		return;
	}
#define EXPECT(field, want) \
	snprintf(what, sizeof(what), "%s." #field, name), expect(what, (double)s.field, want)
	EXPECT(n, (double)n);
	EXPECT(mean, mean);
	EXPECT(stddev, sd);
	EXPECT(p50, p50);
	EXPECT(p90, p90);
	EXPECT(p99, p99);
	EXPECT(p999, p999);
	EXPECT(min, (double)min);
	EXPECT(max, (double)max);
#undef EXPECT
}

int main(void)
{
	int64_t ten[] = { 5, 1, 9, 3, 7, 2, 8, 6, 4, 10 };
	int64_t skew[] = { 1000, 1000, 1000, 1000, 5000 };
	int64_t one[] = { 42 };
	int64_t *thousand = malloc(1000 * sizeof(*thousand));
	double reps[] = { 3.0, 1.0, 2.0, 10.0 };
	struct summary s;

	expect_summary("ten", ten, 10, 5.5, 3.0276503540974917, 5.5, 9.1, 9.91, 9.991, 1, 10);
	expect_summary("skew", skew, 5, 1800, 1788.8543819998317, 1000, 3400, 4840, 4984, 1000, 5000);
	expect_summary("one", one, 1, 42, 0, 42, 42, 42, 42, 42, 42);
	for (int i = 0; i < 1000; i++)
		thousand[i] = 1000 - i;	/* descending: summarize must sort */
	expect_summary("thousand", thousand, 1000, 500.5, 288.8194360957494, 500.5, 900.1, 990.01,
		       999.001, 1, 1000);
	if (summarize(thousand, 0, &s) == 0) {
		printf("not ok: an empty sample set must be refused\n");
		failures++;
	}
	expect("median_of(reps)", median_of(reps, 4), 2.5);
	expect("stddev_of(reps)", stddev_of(reps, 4), 4.08248290463863);
	expect("mean_of(reps)", mean_of(reps, 4), 4.0);
	expect("reps untouched by median_of", reps[0], 3.0);
	free(thousand);
	printf("%s\n", failures ? "FAIL" : "ok: stats match numpy");
	return failures ? 1 : 0;
}
