/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flags every kernel/bench program takes, parsed once: --samples,
 * --benchmark_repetitions (at most KBENCH_MAX_REPS) and --benchmark_out
 * (lib/gbjson's: the file is opened before the first measurement by
 * gb_output_prepare()). Values go through lib/cli: a bad one is exit 2.
 */
#ifndef KNOTIF_KBENCH_FLAGS_H
#define KNOTIF_KBENCH_FLAGS_H

#include <getopt.h>
#include <stdbool.h>

#include "cli.h"
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

/* After the options: no operand left, and --benchmark_out opened (exit 2 if it cannot be) */
static inline void kbench_flags_done(struct kbench_flags *f, int argc, char *const argv[])
{
	cli_no_operands(argc, argv);
	gb_output_prepare(&f->out);
}

#endif
