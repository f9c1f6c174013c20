// SPDX-License-Identifier: GPL-2.0
#include "gbread.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "why.h"

static const char *const figure_keys[GB_FIGURE_COUNT] = {
	[GB_REAL_TIME] = "real_time",
	[GB_CPU_TIME] = "cpu_time",
	[GB_P50] = "p50",
	[GB_P99] = "p99",
	[GB_FLOOR_RATIO] = "floor_ratio",
};

const char *gb_figure_key(enum gb_figure f)
{
	return f < GB_FIGURE_COUNT ? figure_keys[f] : "?";
}

int gb_figure_parse(const char *key, enum gb_figure *f)
{
	for (int i = 0; i < GB_FIGURE_COUNT; i++)
		if (!strcmp(key, figure_keys[i])) {
			*f = (enum gb_figure)i;
			return 0;
		}
	return -EINVAL;
}

static struct gb_series *series_for(struct gb_file *f, const char *name)
{
	json_t *at = json_object_get(f->index, name);
	struct gb_series *s;

	if (at)
		return &f->series[json_integer_value(at)];
	if (f->count == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;

		s = realloc(f->series, cap * sizeof(*s));
		if (!s)
			return NULL;
		f->series = s;
		f->cap = cap;
	}
	s = &f->series[f->count];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	if (!s->name || json_object_set_new(f->index, name, json_integer((json_int_t)f->count))) {
		free(s->name);
		return NULL;
	}
	f->count++;
	return s;
}

/* ns per time_unit; GB writes real_time and cpu_time in the row's unit */
static double unit_ns(json_t *row)
{
	const char *u = json_string_value(json_object_get(row, "time_unit"));

	if (!u || !strcmp(u, "ns"))
		return 1;
	if (!strcmp(u, "us"))
		return 1e3;
	if (!strcmp(u, "ms"))
		return 1e6;
	if (!strcmp(u, "s"))
		return 1e9;
	return NAN;
}

/* the figure under its key, or under key + "_ns" (kernel/bench's spelling in the committed -icount results) */
static double figure_of(json_t *row, enum gb_figure k)
{
	char alt[32];
	json_t *val = json_object_get(row, figure_keys[k]);

	if (k == GB_REAL_TIME || k == GB_CPU_TIME)
		return json_is_number(val) ? json_number_value(val) * unit_ns(row) : NAN;
	if (!val) {
		snprintf(alt, sizeof(alt), "%s_ns", figure_keys[k]);
		val = json_object_get(row, alt);
	}
	return json_is_number(val) ? json_number_value(val) : NAN;
}

static int append_rep(struct gb_series *s, json_t *row)
{
	if (s->reps == s->reps_cap) {
		size_t cap = s->reps_cap ? 2 * s->reps_cap : 1;

		for (int k = 0; k < GB_FIGURE_COUNT; k++) {
			double *v = realloc(s->fig[k], cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			s->fig[k] = v;
		}
		s->reps_cap = cap;
	}
	for (int k = 0; k < GB_FIGURE_COUNT; k++)
		s->fig[k][s->reps] = figure_of(row, (enum gb_figure)k);
	s->reps++;
	return 0;
}

int gb_file_init(struct gb_file *f, const char *path, char *why, size_t len)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->index = json_object();
	if (!f->index)
		return why_fail(-ENOMEM, why, len, "%s: out of memory", path);
	return 0;
}

void gb_file_set_context(struct gb_file *f, json_t *context)
{
	json_decref(f->context);
	if (!json_is_object(context)) {
		json_decref(context);
		context = json_object();
	}
	f->context = context;
}

/* a string of the row's that a series keeps: copied, as the row may be freed */
static int keep_str(char **to, json_t *from)
{
	const char *s = json_string_value(from);

	if (!s)
		return 0;
	*to = strdup(s);
	return *to ? 0 : -ENOMEM;
}

int gb_file_add_row(struct gb_file *f, json_t *row, size_t i, char *why, size_t len)
{
	const char *name = json_string_value(json_object_get(row, "name"));
	const char *type = json_string_value(json_object_get(row, "run_type"));
	struct gb_series *s;

	if (!json_is_object(row) || !name)
		return why_fail(-EINVAL, why, len, "%s: benchmarks[%zu] has no \"name\"", f->path, i);
	if (type && strcmp(type, "iteration"))
		return 0;	/* aggregates are derived; recompute them instead */
	s = series_for(f, name);
	if (!s || (!s->kind && keep_str(&s->kind, json_object_get(row, "kind"))))
		return why_fail(-ENOMEM, why, len, "%s: out of memory", f->path);
	if (json_is_true(json_object_get(row, "error_occurred"))) {
		const char *msg = json_string_value(json_object_get(row, "error_message"));

		free(s->error);
		s->error = strdup(msg ? msg : "error (no message)");
		return s->error ? 0 : why_fail(-ENOMEM, why, len, "%s: out of memory", f->path);
	}
	if (append_rep(s, row))
		return why_fail(-ENOMEM, why, len, "%s: out of memory", f->path);
	return 0;
}

int gb_file_from_json(struct gb_file *f, json_t *root, const char *path, char *why, size_t len)
{
	json_t *rows, *row;
	size_t i;
	int err;

	err = gb_file_init(f, path, why, len);
	f->root = root;
	if (err)
		goto out;
	if (!json_is_object(root)) {
		err = why_fail(-EINVAL, why, len, "%s: not a benchmark result: the top level is not a JSON object", path);
		goto out;
	}
	gb_file_set_context(f, json_incref(json_object_get(root, "context")));
	if (json_object_get(root, "context") != f->context)
		json_object_set(root, "context", f->context);	/* the document as it is read */
	rows = json_object_get(root, "benchmarks");
	if (!json_is_array(rows)) {
		err = why_fail(-EINVAL, why, len, "%s: not a benchmark result: no \"benchmarks\" array", path);
		goto out;
	}
	json_array_foreach(rows, i, row) {
		err = gb_file_add_row(f, row, i, why, len);
		if (err)
			goto out;
	}
	return 0;
out:
	gb_file_free(f);
	return err;
}

int gb_file_open(const char *path, FILE **in, char *why, size_t len)
{
	*in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!*in)
		return why_fail(-errno, why, len, "cannot read %s: %s", path, strerror(errno));
	return 0;
}

int gb_file_load(struct gb_file *f, const char *path, char *why, size_t len)
{
	json_error_t jerr;
	json_t *root;
	FILE *in;
	int err;

	memset(f, 0, sizeof(*f));
	err = gb_file_open(path, &in, why, len);
	if (err)
		return err;
	root = json_loadf(in, JSON_REJECT_DUPLICATES, &jerr);
	if (in != stdin)
		fclose(in);
	if (!root)
		return why_fail(-EINVAL, why, len, "%s: not valid JSON: %s (line %d, column %d)", path, jerr.text,
			    jerr.line, jerr.column);
	return gb_file_from_json(f, root, path, why, len);
}

void gb_file_free(struct gb_file *f)
{
	for (size_t i = 0; i < f->count; i++) {
		for (int k = 0; k < GB_FIGURE_COUNT; k++)
			free(f->series[i].fig[k]);
		free(f->series[i].name);
		free(f->series[i].kind);
		free(f->series[i].error);
	}
	free(f->series);
	json_decref(f->index);
	json_decref(f->context);
	json_decref(f->root);
	memset(f, 0, sizeof(*f));
}

const struct gb_series *gb_file_find(const struct gb_file *f, const char *name)
{
	json_t *at = json_object_get(f->index, name);

	return at ? &f->series[json_integer_value(at)] : NULL;
}

const char *gb_context_str(const struct gb_file *f, const char *key)
{
	const char *s = json_string_value(json_object_get(f->context, key));

	return s ? s : "";
}

const char *gb_knotif_str(const struct gb_file *f, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(f->context, "knotif"), key));

	return s ? s : "";
}
