/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_CLI_OPTIONS_H
#define KNOTIF_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * A program's options, each declared once, in a table that yields both
 * getopt_long's long options and short-option string and the option lines
 * of --help (which help2man and scripts/helpopts.py read in turn for the
 * man page and the shell completion). Most tools write it as a data file
 * that cli_options_def.h expands (bench/bench_options.def); by hand:
 *
 *   static const struct cli_option options[] = {
 *           { "samples", OPT_SAMPLES, required_argument, "--samples=N",
 *             "timed round trips per repetition (default 5000)" },
 *           CLI_HELP_OPTION, CLI_VERSION_OPTION, CLI_OPTIONS_END,
 *   };
 *
 * A help line is "  " + shown, padded to the spec's column, + the help's
 * first line; the help's further lines ('\n'-separated) start at the
 * column too. A shown too wide for the column puts the help on the lines
 * below it.
 */
struct cli_option {
	const char *name;	/* long name without "--"; NULL: a --help line only */
	int key;		/* getopt_long's answer: a letter (also the short option) or >= 256 */
	int has_arg;		/* no_argument, required_argument or optional_argument */
	const char *shown;	/* --help's left column ("--samples=N", "-o, --output F"); NULL: no line */
	const char *help;	/* --help's right column */
};
#define CLI_HELP_OPTION { "help", 'h', no_argument, "-h, --help", "this text" }
#define CLI_VERSION_OPTION { "version", 'V', no_argument, "-V, --version", "version and git sha" }
#define CLI_OPTIONS_END { NULL, 0, 0, NULL, NULL }	/* name and shown NULL */

struct cli_spec {
	const char *head;	/* --help's text before the option lines */
	const struct cli_option *const *tables;	/* the option tables, in order, NULL-terminated */
	const char *tail;	/* --help's text after them */
	int column;		/* where the help column starts */
	bool stop_at_operand;	/* options end at the first operand (a COMMAND and its own flags) */
};

/*
 * The next option's key, or -1 at the end of the options (optind: the
 * first operand). -h prints --help and -V the version and git sha, both
 * exiting 0; a missing value, an unknown option or a value given to an
 * option that takes none is a usage error (exit 2), said as
 * cli_other_option() says it.
 */
int cli_next_option(const struct cli_spec *spec, int argc, char **argv);
/* --help, from the spec */
void cli_help(const struct cli_spec *spec, FILE *out);

#endif
