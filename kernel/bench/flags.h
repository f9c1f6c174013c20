/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flags every kernel/bench program takes, parsed once: --samples,
 * --benchmark_repetitions (at most KBENCH_MAX_REPS) and --benchmark_out
 * (lib/gbjson's: the file is opened before the first measurement by
 * gb_output_prepare()), in one parse with each program's own options
 * (kbench_setup()). Values go through lib/cli: a bad one is exit 2.
 */
#ifndef KNOTIF_KBENCH_FLAGS_H
#define KNOTIF_KBENCH_FLAGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "cli.h"
#include "cpu.h"
#include "gbjson.h"

#define KBENCH_MAX_REPS 100

#define KBENCH_LONGOPTS                                                       \
	{ "samples", required_argument, NULL, 's' },                           \
	{ "benchmark_repetitions", required_argument, NULL, 'r' },             \
	{ "benchmark_out", required_argument, NULL, GB_OPT_OUT },              \
	{ "help", no_argument, NULL, 'h' }

struct kbench_flags {
	int samples;
	int reps;
	struct gb_output out;
};

/* true if c was one of the common flags (then taken into f) */
static inline bool kbench_flag(struct kbench_flags *f, int c, const char *arg)
{
	switch (c) {
	case 's':
		f->samples = (int)cli_int("--samples", arg, 1, 10000000);
		return true;
	case 'r':
		f->reps = (int)cli_int("--benchmark_repetitions", arg, 1, KBENCH_MAX_REPS);
		return true;
	default:
		return gb_output_option(&f->out, c, arg);
	}
}

/*
 * The command line: the common flags into f, the program's own options
 * (opts past KBENCH_LONGOPTS) through own(c, arg), which says false for
 * one it does not take; then no operand may be left and --benchmark_out
 * is opened. Bad usage is exit 2 with usage. Last, the caller is pinned to
 * CPU 0: every kernel/bench program measures on one CPU.
 */
static inline void kbench_setup(struct kbench_flags *f, int argc, char **argv,
				const struct option *opts, const char *usage,
				bool (*own)(int c, const char *arg))
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", opts, NULL)) != -1)
		if (!kbench_flag(f, c, optarg) && !(own && own(c, optarg)))
			cli_other_option(c, usage, argv);
	cli_no_operands(argc, argv);
	gb_output_prepare(&f->out);	/* a path we cannot write is exit 2 now, not a lost run */
	if (pin_to(0))
		fprintf(stderr, "%s: warning: cannot pin to CPU 0\n", knotif_prog);
}

#endif
