// SPDX-License-Identifier: GPL-2.0
#include "cli_options.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"

#define LONG_MAX_COUNT 64	/* long options a program may have */

static bool is_end(const struct cli_option *o)
{
	return !o->name && !o->shown;
}

/* getopt_long's view of the spec: its long options and its short-option string */
struct getopt_view {
	struct option longopts[LONG_MAX_COUNT + 1];
	char shortopts[2 * LONG_MAX_COUNT + 3];
};

static void getopt_view(const struct cli_spec *spec, struct getopt_view *v)
{
	size_t n = 0, s = 0;

	memset(v, 0, sizeof(*v));
	if (spec->stop_at_operand)
		v->shortopts[s++] = '+';
	v->shortopts[s++] = ':';	/* a missing value is ':', not '?' */
	for (const struct cli_option *const *t = spec->tables; *t; t++) {
		for (const struct cli_option *o = *t; !is_end(o); o++) {
			if (!o->name)
				continue;
			if (n == LONG_MAX_COUNT)	/* a program's table outgrew this file */
				die("more than %d long options", LONG_MAX_COUNT);
			v->longopts[n++] = (struct option){ o->name, o->has_arg, NULL, o->key };
			if (o->key > 0 && o->key < 256) {
				v->shortopts[s++] = (char)o->key;
				if (o->has_arg == required_argument)
					v->shortopts[s++] = ':';
			}
		}
	}
}

int cli_next_option(const struct cli_spec *spec, int argc, char **argv)
{
	static const struct cli_spec *built;
	static struct getopt_view view;
	int c;

	if (built != spec) {
		getopt_view(spec, &view);
		built = spec;
		opterr = 0;
	}
	c = getopt_long(argc, argv, view.shortopts, view.longopts, NULL);
	if (c == 'h') {
		cli_help(spec, stdout);
		exit(0);
	}
	if (c == 'V' || c == ':' || c == '?')
		cli_other_option(c, "", argv);
	return c;
}

/* lines of text (a last '\n' or none) starting at the column, the first one already there */
static void help_lines(const char *text, int column, FILE *out)
{
	for (;;) {
		int len = (int)strcspn(text, "\n");

		fprintf(out, "%.*s\n", len, text);
		text += len + (text[len] == '\n');
		if (!*text)
			return;
		fprintf(out, "%*s", column, "");
	}
}

void cli_help(const struct cli_spec *spec, FILE *out)
{
	fputs(spec->head, out);
	for (const struct cli_option *const *t = spec->tables; *t; t++) {
		for (const struct cli_option *o = *t; !is_end(o); o++) {
			if (!o->shown || !o->help)
				continue;
			if (2 + (int)strlen(o->shown) + 2 > spec->column)	/* no two blanks before the help */
				fprintf(out, "  %s\n%*s", o->shown, spec->column, "");
			else
				fprintf(out, "  %-*s", spec->column - 2, o->shown);
			help_lines(o->help, spec->column, out);
		}
	}
	fputs(spec->tail, out);
}
