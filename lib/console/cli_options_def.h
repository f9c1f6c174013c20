/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tool's command line from one declaration: a data file of the tool's
 * (bench/bench_options.def) holds --help's text and a line an option, and
 * this header, included once in the file that parses them with
 * CLI_OPTIONS_DEF naming that file (a name unique on the tool's include
 * path: its folder is on it), makes from it the options' keys, their table
 * and the whole spec (lib/console/cli_options.h):
 *
 *   #define CLI_OPTIONS_DEF "bench_options.def"
 *   #include "cli_options_def.h"	// enum { OPT_SAMPLES, ... }, cli_tool_options[], cli_tool_spec
 *
 * The file's lines:
 *   HEAD(TEXT)                        --help's text before the options
 *   COLUMN(N)                         where their help column starts
 *   OPTION(ID, NAME, ARG, SHOWN, HELP)    key OPT_ID, long option --NAME
 *   SHORT_OPTION(LETTER, NAME, ARG, SHOWN, HELP)  key LETTER, also -LETTER
 *   GB_OUTPUT_OPTIONS                 lib/gbjson's --benchmark_format,
 *                                     --benchmark_out and --benchmark_out_format
 *   TAIL(TEXT)                        --help's text after the options
 * (the options in --help's order; ARG: no_argument, required_argument or
 * optional_argument; SHOWN and HELP: struct cli_option's). -h, --help and
 * -V, --version end the options.
 */
#include "cli_options.h"

/* the keys */
#define HEAD(text)
#define COLUMN(n)
#define TAIL(text)
#define OPTION(id, name, arg, shown, help) OPT_##id,
#define SHORT_OPTION(letter, name, arg, shown, help)
#define GB_OUTPUT_OPTIONS
enum {
	OPT_KEYS_FROM = 255,	/* above every short option's letter */
#include CLI_OPTIONS_DEF
};
#undef OPTION
#undef SHORT_OPTION
#undef GB_OUTPUT_OPTIONS

/* the table */
#define OPTION(id, name, arg, shown, help) { name, OPT_##id, arg, shown, help },
#define SHORT_OPTION(letter, name, arg, shown, help) { name, letter, arg, shown, help },
#define GB_OUTPUT_OPTIONS GB_OUTPUT_OPTION_ROWS
static const struct cli_option cli_tool_options[] = {
#include CLI_OPTIONS_DEF
	CLI_HELP_OPTION,
	CLI_VERSION_OPTION,
	CLI_OPTIONS_END,
};
#undef OPTION
#undef SHORT_OPTION
#undef GB_OUTPUT_OPTIONS
#undef HEAD
#undef COLUMN
#undef TAIL

/* the spec: the text around them */
#define HEAD(text) .head = text,
#define COLUMN(n) .column = n,
#define TAIL(text) .tail = text,
#define OPTION(id, name, arg, shown, help)
#define SHORT_OPTION(letter, name, arg, shown, help)
#define GB_OUTPUT_OPTIONS
static const struct cli_spec cli_tool_spec = {
#include CLI_OPTIONS_DEF
	.tables = (const struct cli_option *const[]){ cli_tool_options, NULL },
};
#undef HEAD
#undef COLUMN
#undef TAIL
#undef OPTION
#undef SHORT_OPTION
#undef GB_OUTPUT_OPTIONS
