// SPDX-License-Identifier: GPL-2.0
#include "gbagg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gbjson.h"
#include "stats.h"

/* GB's own keys: copied or recomputed by gb_aggregate, never aggregated as counters */
static int is_gb_key(const char *key)
{
	static const char *const own[] = {
		"family_index", "per_family_instance_index", "repetitions", "repetition_index", "threads",
		"iterations", "real_time", "cpu_time",
	};

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(key, own[i]))
			return 1;
	return 0;
}

/* key's values across the rows; NAN where a row lacks it */
static void column(json_t *rows, const char *key, double *v)
{
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row) {
		json_t *x = json_object_get(row, key);

		v[i] = x && json_is_number(x) ? json_number_value(x) : NAN;
	}
}

static double aggregate(const char *agg, const double *v, size_t n)
{
	double mean = mean_of(v, n), sd = stddev_of(v, n);

	if (!strcmp(agg, "mean"))
		return mean;
	if (!strcmp(agg, "median"))
		return median_of(v, n);
	if (!strcmp(agg, "stddev"))
		return sd;
	return mean != 0 ? sd / mean : NAN;	/* cv */
}

json_t *gb_aggregate_rows(json_t *iterations, int family_index)
{
	static const char *const aggs[] = { "mean", "median", "stddev", "cv" };
	size_t n = json_array_size(iterations);
	json_t *first = json_array_get(iterations, 0), *out, *val;
	const char *run_name, *key;
	double *v;

	if (!n || !first)
		return NULL;
	run_name = json_string_value(json_object_get(first, "run_name"));
	v = calloc(n, sizeof(*v));
	out = json_array();
	if (!v || !out || !run_name) {
		free(v);
		json_decref(out);
		return NULL;
	}
	for (size_t a = 0; a < 4; a++) {
		double real, cpu;
		json_t *row;

		column(iterations, "real_time", v);
		real = aggregate(aggs[a], v, n);
		column(iterations, "cpu_time", v);
		cpu = aggregate(aggs[a], v, n);
		row = gb_aggregate(run_name, family_index, aggs[a], (int)n,
				   json_integer_value(json_object_get(first, "iterations")), real, cpu);
		json_object_foreach(first, key, val) {
			double x;

			if (is_gb_key(key) || !json_is_number(val))
				continue;
			column(iterations, key, v);
			x = aggregate(aggs[a], v, n);
			if (!isnan(x))
				gb_counter(row, key, x);
		}
		json_array_append_new(out, row);
	}
	free(v);
	return out;
}
