// SPDX-License-Identifier: GPL-2.0
/*
 * check-bench-json FILE [--ok NAME]... [--unsupported NAME]... [--ok-or-skip NAME]
 *
 * Reads a knotif-bench JSON file with jansson and checks it against the
 * schema every consumer relies on (Google Benchmark's, plus knotif's
 * context and counters). --ok NAME: NAME ran, with consistent figures.
 * --unsupported NAME: NAME is an error row reading "unsupported: …".
 * --ok-or-skip NAME: as --ok, but exit 77 when NAME is unsupported here.
 * Exit 0 valid, 1 invalid (each problem on its own line), 77 skipped.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int problems;

__attribute__((format(printf, 1, 2)))
static void problem(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("not ok: ");
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	problems++;
}

static void need(json_t *obj, const char *where, const char *key, json_type type)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		problem("%s: missing \"%s\"", where, key);
	else if (json_typeof(v) != type && !(type == JSON_REAL && json_is_integer(v)))
		problem("%s: \"%s\" has the wrong type", where, key);
}

static void check_context(json_t *ctx)
{
	static const char *const strings[] = { "date", "host_name", "executable", "library_build_type" };
	static const char *const kstrings[] = { "version", "git_sha", "kernel_release", "kernel_version",
						"machine", "cpu_model", "clocksource", "syscall", "counters" };
	static const char *const kints[] = { "schema_version", "samples_per_repetition", "repetitions",
					     "timer_ns" };
	json_t *k = json_object_get(ctx, "knotif");

	if (!json_is_object(ctx)) {
		problem("no \"context\" object");
		return;
	}
	for (size_t i = 0; i < sizeof(strings) / sizeof(*strings); i++)
		need(ctx, "context", strings[i], JSON_STRING);
	need(ctx, "context", "num_cpus", JSON_INTEGER);
	need(ctx, "context", "mhz_per_cpu", JSON_INTEGER);
	need(ctx, "context", "caches", JSON_ARRAY);
	need(ctx, "context", "load_avg", JSON_ARRAY);
	need(ctx, "context", "json_schema_version", JSON_INTEGER);
	if (!json_is_object(k)) {
		problem("no \"context.knotif\" object");
		return;
	}
	for (size_t i = 0; i < sizeof(kstrings) / sizeof(*kstrings); i++)
		need(k, "context.knotif", kstrings[i], JSON_STRING);
	for (size_t i = 0; i < sizeof(kints) / sizeof(*kints); i++)
		need(k, "context.knotif", kints[i], JSON_INTEGER);
	need(k, "context.knotif", "command_line", JSON_ARRAY);
	need(k, "context.knotif", "placements", JSON_OBJECT);
	need(k, "context.knotif", "floor", JSON_OBJECT);
	if (!json_is_boolean(json_object_get(k, "mlockall")))
		problem("context.knotif: \"mlockall\" is not a boolean");
}

static double num(json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);

	return v && json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * A row carries floor_ratio when its placement has a floor; when none of its
 * ping-pongs qualified, context.knotif.floor.<placement> has a null
 * benchmark and a reason, and the row has no floor_ratio.
 */
static void check_floor_ratio(json_t *row, const char *where, json_t *floors)
{
	const char *run = json_string_value(json_object_get(row, "run_name"));	/* no _mean, ... */
	const char *placement = run ? strstr(run, "placement:") : NULL;
	json_t *floor = placement ? json_object_get(floors, placement + strlen("placement:")) : NULL;

	if (floor && json_is_null(json_object_get(floor, "benchmark"))) {
		if (!json_is_string(json_object_get(floor, "reason")))
			problem("%s: no floor at its placement, and no \"reason\" for it", where);
		if (json_object_get(row, "floor_ratio"))
			problem("%s: a floor_ratio without a floor", where);
		return;
	}
	if (!floor)
		problem("%s: no context.knotif.floor entry for its placement", where);
	need(row, where, "floor_ratio", JSON_REAL);
}

static void check_row(json_t *row, size_t i, json_t *floors)
{
	static const char *const counters[] = { "min", "p50", "p90", "p99", "p999", "max", "stddev",
						"items_per_second" };
	char where[256];
	const char *name = json_string_value(json_object_get(row, "name"));
	const char *type = json_string_value(json_object_get(row, "run_type"));

	snprintf(where, sizeof(where), "benchmarks[%zu] (%s)", i, name ? name : "?");
	need(row, where, "name", JSON_STRING);
	need(row, where, "run_name", JSON_STRING);
	need(row, where, "run_type", JSON_STRING);
	need(row, where, "family_index", JSON_INTEGER);
	if (json_is_true(json_object_get(row, "error_occurred"))) {
		/* as Google Benchmark writes a skipped run: compare.py reads every one of these */
		need(row, where, "error_message", JSON_STRING);
		need(row, where, "repetitions", JSON_INTEGER);
		need(row, where, "threads", JSON_INTEGER);
		need(row, where, "iterations", JSON_INTEGER);
		need(row, where, "real_time", JSON_REAL);
		need(row, where, "cpu_time", JSON_REAL);
		need(row, where, "time_unit", JSON_STRING);
		return;
	}
	need(row, where, "repetitions", JSON_INTEGER);
	need(row, where, "threads", JSON_INTEGER);
	need(row, where, "iterations", JSON_INTEGER);
	need(row, where, "real_time", JSON_REAL);
	need(row, where, "cpu_time", JSON_REAL);
	need(row, where, "time_unit", JSON_STRING);
	for (size_t c = 0; c < sizeof(counters) / sizeof(*counters); c++)
		need(row, where, counters[c], JSON_REAL);
	check_floor_ratio(row, where, floors);
	if (type && !strcmp(type, "iteration")) {
		need(row, where, "repetition_index", JSON_INTEGER);
		if (!(num(row, "min") <= num(row, "p50") && num(row, "p50") <= num(row, "p90") &&
		      num(row, "p90") <= num(row, "p99") && num(row, "p99") <= num(row, "p999") &&
		      num(row, "p999") <= num(row, "max")))
			problem("%s: quantiles out of order", where);
		if (!(num(row, "min") <= num(row, "real_time") && num(row, "real_time") <= num(row, "max")))
			problem("%s: mean outside [min, max]", where);
		if (!(num(row, "iterations") > 0))
			problem("%s: no iterations", where);
	} else if (type && !strcmp(type, "aggregate")) {
		need(row, where, "aggregate_name", JSON_STRING);
	} else {
		problem("%s: run_type is neither iteration nor aggregate", where);
	}
}

/* 0 ran, 1 unsupported, -1 absent/failed; *msg gets the error message */
static int find(json_t *rows, const char *name, const char **msg)
{
	json_t *row;
	size_t i;
	int reps = 0, seen = 0;
	bool aggregates = false;

	*msg = NULL;
	json_array_foreach(rows, i, row) {
		const char *run = json_string_value(json_object_get(row, "run_name"));

		if (!run || strcmp(run, name))
			continue;
		if (json_is_true(json_object_get(row, "error_occurred"))) {
			*msg = json_string_value(json_object_get(row, "error_message"));
			return *msg && !strncmp(*msg, "unsupported: ", 13) ? 1 : -1;
		}
		if (!strcmp(json_string_value(json_object_get(row, "run_type")), "iteration")) {
			if (json_integer_value(json_object_get(row, "repetition_index")) != seen)
				problem("%s: repetition_index %lld out of sequence", name,
					(long long)json_integer_value(json_object_get(row, "repetition_index")));
			seen++;
			reps = (int)json_integer_value(json_object_get(row, "repetitions"));
		} else {
			aggregates = true;
		}
	}
	if (!seen)
		return -1;
	if (seen != reps)
		problem("%s: %d iteration rows for %d repetitions", name, seen, reps);
	if (reps > 1 && !aggregates)
		problem("%s: %d repetitions but no aggregate rows", name, reps);
	return 0;
}

int main(int argc, char **argv)
{
	json_error_t err;
	json_t *doc, *rows, *row;
	bool skip = false;
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: check-bench-json FILE [--ok|--unsupported|--ok-or-skip NAME]...\n");
		return 2;
	}
	doc = json_load_file(argv[1], 0, &err);
	if (!doc) {
		printf("not ok: %s: line %d: %s\n", argv[1], err.line, err.text);
		return 1;
	}
	check_context(json_object_get(doc, "context"));
	rows = json_object_get(doc, "benchmarks");
	if (!json_is_array(rows) || json_array_size(rows) == 0)
		problem("no \"benchmarks\" rows");
	json_array_foreach(rows, i, row)
		check_row(row, i, json_object_get(json_object_get(json_object_get(doc, "context"), "knotif"), "floor"));
	for (int a = 2; a + 1 < argc; a += 2) {
		const char *msg;
		int found = find(rows, argv[a + 1], &msg);

		if (!strcmp(argv[a], "--unsupported")) {
			if (found != 1)
				problem("%s: expected an \"unsupported: …\" row", argv[a + 1]);
		} else if (found == 1 && !strcmp(argv[a], "--ok-or-skip")) {
			printf("skip: %s: %s\n", argv[a + 1], msg);
			skip = true;
		} else if (found != 0) {
			problem("%s: did not run%s%s", argv[a + 1], msg ? ": " : "", msg ? msg : "");
		}
	}
	json_decref(doc);
	if (problems)
		return 1;
	return skip ? 77 : 0;
}
