// SPDX-License-Identifier: GPL-2.0
#include "pool.h"

#include <string.h>

#include "gbagg.h"

static bool is_iteration(json_t *row)
{
	const char *type = json_string_value(json_object_get(row, "run_type"));

	return !type || !strcmp(type, "iteration");
}

static json_t *rows_of(const struct gb_file *f)
{
	return json_object_get(f->root, "benchmarks");
}

/* this run's rows of one benchmark, appended; returns how many were iterations */
static size_t append_reps(json_t *out, const struct gb_file *f, const char *name, size_t first)
{
	size_t i, added = 0;
	json_t *row;

	json_array_foreach(rows_of(f), i, row) {
		json_t *copy;

		if (strcmp(json_string_value(json_object_get(row, "name")), name) ||
		    !is_iteration(row) || json_is_true(json_object_get(row, "error_occurred")))
			continue;
		copy = json_deep_copy(row);
		json_object_set_new(copy, "repetition_index", json_integer((json_int_t)(first + added)));
		json_array_append_new(out, copy);
		added++;
	}
	return added;
}

static json_t *error_row(const struct gb_file *f, const char *name)
{
	size_t i;
	json_t *row;

	json_array_foreach(rows_of(f), i, row)
		if (!strcmp(json_string_value(json_object_get(row, "name")), name) &&
		    json_is_true(json_object_get(row, "error_occurred")))
			return json_deep_copy(row);
	return NULL;
}

static void add_benchmark(json_t *out, const struct gb_file *runs, size_t n, const char *name)
{
	json_t *reps = json_array(), *aggs, *row;
	size_t count = 0, i;

	for (size_t r = 0; r < n; r++)
		count += append_reps(reps, &runs[r], name, count);
	json_array_foreach(reps, i, row)
		json_object_set_new(row, "repetitions", json_integer((json_int_t)count));
	if (count) {
		/* aggregates anew, over the pooled repetitions */
		aggs = count > 1 ? gb_aggregate_rows(reps, (int)json_integer_value(
				json_object_get(json_array_get(reps, 0), "family_index"))) : NULL;
		json_array_extend(out, reps);
		if (aggs)
			json_array_extend(out, aggs);
		json_decref(aggs);
		json_decref(reps);
		return;
	}
	json_decref(reps);
	for (size_t r = n; r-- > 0;) {
		json_t *err = error_row(&runs[r], name);

		if (err) {
			json_array_append_new(out, err);
			return;
		}
	}
}

static bool seen_before(const struct gb_file *runs, size_t r, size_t n, const char *name)
{
	for (size_t k = r + 1; k < n; k++)
		if (gb_file_find(&runs[k], name))
			return true;
	return false;
}

json_t *history_pool(const struct gb_file *runs, const long long *ids, size_t n,
		     const char *selector)
{
	const struct gb_file *newest = &runs[n - 1];
	json_t *ctx = json_deep_copy(newest->context), *list = json_array(), *rows = json_array();
	json_t *k = json_object_get(ctx, "knotif");

	for (size_t r = 0; r < n; r++)
		json_array_append_new(list, json_pack("{s:I,s:s,s:s,s:s}", "id", (json_int_t)ids[r],
			"git_sha", gb_knotif_str(&runs[r], "git_sha"),
			"date", gb_context_str(&runs[r], "date"),
			"host_name", gb_context_str(&runs[r], "host_name")));
	if (!json_is_object(k)) {
		k = json_object();
		json_object_set_new(ctx, "knotif", k);
	}
	json_object_set_new(k, "baseline", json_pack("{s:s,s:o}", "selector", selector, "runs", list));
	/* benchmark order: the newest run's, then any only older runs had */
	for (size_t r = n; r-- > 0;)
		for (size_t i = 0; i < runs[r].count; i++)
			if (!seen_before(runs, r, n, runs[r].series[i].name))
				add_benchmark(rows, runs, n, runs[r].series[i].name);
	return json_pack("{s:o,s:o}", "context", ctx, "benchmarks", rows);
}
