// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: readers-agree FILE... reads each file twice, with
 * gb_file_load (jansson, the whole document: knotif-history's reader) and
 * gb_file_stream (yajl, one row at a time: knotif-compare's), and checks
 * they agree: both refuse it with the same return value and the same line
 * (for a syntax error only up to "not valid JSON": the detail after it is
 * each parser's own words), or both read the same series (names, kinds,
 * errors, every figure) and the same context. One line per disagreement,
 * then "N files: R read, F refused, D disagree"; exit 0 when none disagree.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gbread.h"
#include "stream.h"

static const char syntax[] = "not valid JSON";

static bool same_line(const char *a, const char *b)
{
	const char *sa = strstr(a, syntax), *sb = strstr(b, syntax);

	if (sa && sb)
		return sa - a == sb - b && !strncmp(a, b, (size_t)(sa - a));
	return !strcmp(a, b);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_series(const struct gb_series *a, const struct gb_series *b)
{
	if (strcmp(a->name, b->name) || !same_str(a->kind, b->kind) || !same_str(a->error, b->error) ||
	    a->reps != b->reps)
		return false;
	for (int k = 0; k < GB_FIGURE_COUNT; k++)
		for (size_t i = 0; i < a->reps; i++) {
			double x = a->fig[k][i], y = b->fig[k][i];

			if (!(x == y || (isnan(x) && isnan(y))))
				return false;
		}
	return true;
}

/* NULL when they agree, else what differs */
static const char *disagreement(const char *path, bool *read)
{
	struct gb_file whole, stream;
	char why_whole[512], why_stream[512];
	int ew = gb_file_load(&whole, path, why_whole, sizeof(why_whole));
	int es = gb_file_stream(&stream, path, why_stream, sizeof(why_stream));
	const char *what = NULL;

	*read = !ew;
	if (ew != es)
		what = ew ? "only the stream reads it" : "only the whole-document load reads it";
	else if (ew && !same_line(why_whole, why_stream))
		what = "different messages";
	else if (!ew && whole.count != stream.count)
		what = "a different number of series";
	else if (!ew && !json_equal(whole.context, stream.context))
		what = "a different context";
	for (size_t i = 0; !what && !ew && i < whole.count; i++)
		if (!same_series(&whole.series[i], &stream.series[i]))
			what = "a different series";
	if (what)
		printf("%s: %s (whole: %s; stream: %s)\n", path, what, ew ? why_whole : "read",
		       es ? why_stream : "read");
	if (!ew)
		gb_file_free(&whole);
	if (!es)
		gb_file_free(&stream);
	return what;
}

int main(int argc, char **argv)
{
	size_t read = 0, refused = 0, differ = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: readers-agree FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		bool ok;

		differ += disagreement(argv[i], &ok) != NULL;
		ok ? read++ : refused++;
	}
	printf("%d files: %zu read, %zu refused, %zu disagree\n", argc - 1, read, refused, differ);
	return differ ? 1 : 0;
}
