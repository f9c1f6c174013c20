// SPDX-License-Identifier: GPL-2.0
/*
 * Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format/):
 * the shape benchmark dashboards read, one object a benchmark:
 *   {"<run_name>": {"latency": {"value": ns, "lower_value": ns, "upper_value": ns},
 *                   "floor_ratio": {...}}}
 * value is the median over repetitions of each repetition's p50 (a tool's
 * rows without p50: its real_time), lower_value and upper_value the
 * smallest and the largest repetition's. A row that failed or was
 * unsupported has no figure to carry: BMF cannot say so, and JSON and CSV
 * list it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gbbmf.h"
#include "gbjson.h"
#include "stats.h"

/* {"value": median, "lower_value": min, "upper_value": max} of the numbers in values */
static json_t *measure(json_t *values)
{
	size_t n = json_array_size(values), i;
	double *v = malloc((n ? n : 1) * sizeof(*v)), lo, hi;
	json_t *x, *out;

	if (!v || !n) {
		free(v);
		return NULL;
	}
	json_array_foreach(values, i, x)
		v[i] = json_number_value(x);
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	/* median_of() takes it as Google Benchmark's aggregate does: the middle two's mean for even n */
	out = json_pack("{s:f,s:f,s:f}", "value", median_of(v, n), "lower_value", lo, "upper_value", hi);
	free(v);
	return out;
}

/* Appends row's figure key (when a number) to by_name[name][measure_name]. */
static void collect(json_t *by_name, const char *name, const char *measure_name, json_t *figure)
{
	json_t *bench = json_object_get(by_name, name), *values;

	if (!json_is_number(figure))
		return;
	if (!bench) {
		bench = json_object();
		json_object_set_new(by_name, name, bench);
	}
	values = json_object_get(bench, measure_name);
	if (!values) {
		values = json_array();
		json_object_set_new(bench, measure_name, values);
	}
	json_array_append(values, figure);
}

int gb_write_bmf(FILE *out, json_t *benchmarks)
{
	json_t *by_name = json_object(), *row, *bench, *values, *doc = json_object();
	const char *name, *measure_name;
	size_t i;
	int err = 0;

	json_array_foreach(benchmarks, i, row) {
		const char *type = json_string_value(json_object_get(row, "run_type"));
		json_t *p50 = json_object_get(row, "p50");

		if ((type && strcmp(type, "iteration")) || json_is_true(json_object_get(row, "error_occurred")))
			continue;	/* aggregates are recomputed from the repetitions; errors have no figure */
		name = json_string_value(json_object_get(row, "run_name")) ?:
		       json_string_value(json_object_get(row, "name"));
		if (!name)
			continue;
		collect(by_name, name, "latency", p50 ? p50 : json_object_get(row, "real_time"));
		collect(by_name, name, "floor_ratio", json_object_get(row, "floor_ratio"));
	}
	json_object_foreach(by_name, name, bench) {
		json_t *measures = json_object();

		json_object_foreach(bench, measure_name, values) {
			json_t *m = measure(values);

			err |= !m;
			json_object_set_new(measures, measure_name, m ? m : json_null());
		}
		json_object_set_new(doc, name, measures);
	}
	err |= json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(doc);
	json_decref(by_name);
	return err || fflush(out) ? -EIO : 0;
}
