/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_CLI_H
#define KNOTIF_CLI_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Flag values for every knotif program. Each parser accepts the whole
 * string or ends the program with one line and exit 2 (usage_error):
 *   knotif-bench: invalid value for --samples: 'abc' (expected an integer 1..10000000)
 */
enum out_format { FORMAT_CONSOLE, FORMAT_JSON, FORMAT_CSV, FORMAT_BMF };

int64_t cli_int(const char *flag, const char *s, int64_t lo, int64_t hi);
/* "0.5" or "0.5s", in [lo, hi] */
double cli_seconds(const char *flag, const char *s, double lo, double hi);
/* console | json | csv */
enum out_format cli_format(const char *flag, const char *s);
/* A comma-separated list has no empty item ("a,,b", ",a", "a,"): else a usage error ("" and "," are the caller's to judge). */
void cli_list_check(const char *flag, const char *list);
/*
 * A comma-separated list of words from choices[0..n-1] into set[] (set[i]:
 * choices[i] was named); a word outside them is a usage error naming
 * expected ("shared or per-target").
 */
void cli_choices(const char *flag, const char *list, const char *const *choices, int n, bool *set,
		 const char *expected);
/* --placement=LIST: same, cross, free (lib/base/cpu.h) into set[PLACEMENT_COUNT] */
void cli_placements(const char *flag, const char *list, bool *set);
/* absent (a bare flag), true, 1, false, 0 */
bool cli_bool(const char *flag, const char *s);

/*
 * The default: branch of every getopt_long loop (optstring starts with ':'
 * and opterr is 0): -h prints usage_text and -V the version and git sha,
 * both exiting 0; a missing value or an unknown option is a usage error.
 */
_Noreturn void cli_other_option(int c, const char *usage_text, char *const argv[]);
/* After the options: a usage error if any operand is left. */
void cli_no_operands(int argc, char *const argv[]);

#endif
