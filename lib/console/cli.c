// SPDX-License-Identifier: GPL-2.0
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu.h"
#include "knotif_git_sha.h"

int64_t cli_int(const char *flag, const char *s, int64_t lo, int64_t hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		usage_error("invalid value for %s: '%s' (expected an integer %lld..%lld)", flag, s,
			    (long long)lo, (long long)hi);
	return v;
}

double cli_seconds(const char *flag, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == 's')
		end++;
	if (errno || end == s || *end || !(v >= lo) || v > hi)
		usage_error("invalid value for %s: '%s' (expected seconds, %g..%g, e.g. 0.5s)", flag, s, lo, hi);
	return v;
}

enum out_format cli_format(const char *flag, const char *s)
{
	if (!strcmp(s, "console"))
		return FORMAT_CONSOLE;
	if (!strcmp(s, "json"))
		return FORMAT_JSON;
	if (!strcmp(s, "csv"))
		return FORMAT_CSV;
	if (!strcmp(s, "bmf"))
		return FORMAT_BMF;
	usage_error("invalid value for %s: '%s' (expected console, json, csv or bmf)", flag, s);
}

void cli_list_check(const char *flag, const char *list)
{
	size_t n = strlen(list);

	if (strspn(list, ",") < n && (list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,")))
		usage_error("invalid value for %s: '%s' (an empty item in the list)", flag, list);
}

void cli_choices(const char *flag, const char *list, const char *const *choices, int n, bool *set,
		 const char *expected)
{
	char *copy = strdup(list), *save = NULL;
	bool any = false;

	if (!copy)
		die("out of memory");
	cli_list_check(flag, list);
	memset(set, 0, (size_t)n * sizeof(bool));
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; i < n && strcmp(tok, choices[i]); i++)
			;
		if (i == n)
			usage_error("invalid value for %s: '%s' (expected %s)", flag, tok, expected);
		set[i] = any = true;
	}
	free(copy);
	if (!any)
		usage_error("%s needs at least one of %s", flag, expected);
}

void cli_placements(const char *flag, const char *list, bool *set)
{
	const char *names[PLACEMENT_COUNT];

	for (int p = 0; p < PLACEMENT_COUNT; p++)
		names[p] = placement_name((enum placement)p);
	cli_choices(flag, list, names, PLACEMENT_COUNT, set, "same, cross or free");
}

bool cli_bool(const char *flag, const char *s)
{
	if (!s || !strcmp(s, "true") || !strcmp(s, "1"))
		return true;
	if (!strcmp(s, "false") || !strcmp(s, "0"))
		return false;
	usage_error("invalid value for %s: '%s' (expected true or false)", flag, s);
}

void cli_other_option(int c, const char *usage_text, char *const argv[])
{
	switch (c) {
	case 'h':
		fputs(usage_text, stdout);
		exit(0);
	case 'V':
		printf("%s %s (%s)\n", program_invocation_short_name, KNOTIF_VERSION, KNOTIF_GIT_SHA);
		exit(0);
	case ':':
		usage_error("option '%s' needs a value (see --help)", argv[optind - 1]);
	default:
		usage_error("unknown option '%s' (see --help)", argv[optind - 1]);
	}
}

void cli_no_operands(int argc, char *const argv[])
{
	if (optind < argc)
		usage_error("unexpected argument '%s' (see --help)", argv[optind]);
}
