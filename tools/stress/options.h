/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_STRESS_OPTIONS_H
#define KNOTIF_STRESS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "gbjson.h"
#include "stress.h"

#define MAX_LIST 16	/* values one list flag may take */

/* The command line: lists make the matrix, base is what every run starts from. */
struct options {
	int targets[MAX_LIST], ntargets;
	int threads[MAX_LIST], nthreads;
	int pending[MAX_LIST], npending;
	bool topo[TOPO_COUNT], strat[STRATEGY_MAX], placement[PLACEMENT_COUNT], wake[2];
	struct config base;
	int64_t requests_total;
	bool duration_given, requests_given, requests_total_given;
	int reps;
	struct gb_output output;
};

/* Fills o from argv, or ends the program: -h, -V, --list-strategies exit 0, bad usage exits 2. */
void options_parse(struct options *o, int argc, char **argv);

#endif
