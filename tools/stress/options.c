// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-stress's command line: the options table (lib/console/cli_options.h),
 * the defaults, each flag's value, and the rules between flags. Lists make the run matrix (plan() in
 * main.c); everything else lands in the base config every run starts from.
 */
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "cli_options.h"
#include "supervisor.h"

#define DEFAULT_STRATEGY "epoll"

/* --strategy's help names the registry's strategies: written by options_parse() */
static char strategy_help[256];

/* OPT_*, cli_tool_options[] and cli_tool_spec (--help), from stress_options.def */
#define CLI_OPTIONS_DEF "stress_options.def"
#include "cli_options_def.h"

/* The strategies' names, in registry order, joined by sep. */
static const char *strategy_names(char *out, size_t len, const char *sep)
{
	size_t off = 0;

	out[0] = '\0';
	for (int i = 0; i < strategy_count() && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", i ? sep : "", strategy_at(i)->name);
	return out;
}

/* Comma-separated integers in [lo, hi] into out[] (MAX_LIST at most); returns how many. */
static int parse_ints(const char *flag, const char *list, int *out, int64_t lo, int64_t hi)
{
	char *copy = strdup(list), *save = NULL;
	int n = 0;

	if (!copy)
		die("out of memory");
	cli_list_check(flag, list);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			usage_error("%s takes at most %d values", flag, MAX_LIST);
		out[n++] = (int)cli_int(flag, tok, lo, hi);
	}
	free(copy);
	if (!n)
		usage_error("invalid value for %s: '%s' (expected integers %lld..%lld)", flag, list,
			    (long long)lo, (long long)hi);
	return n;
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->targets[o->ntargets++] = 10;
	o->strat[strategy_find(DEFAULT_STRATEGY)] = true;
	o->topo[TOPO_SHARED] = o->placement[PLACEMENT_FREE] = o->wake[0] = true;
	o->threads[o->nthreads++] = 1;
	o->base.requests = 1000;
	o->base.timeout_s = 120;
	o->base.pending_cycles = 2000;
	o->output = (struct gb_output)GB_OUTPUT_DEFAULT;
	o->reps = 1;
}

/* The registry's names, for cli_choices() */
static const char *const *strategy_choices(void)
{
	static const char *names[STRATEGY_MAX];

	for (int i = 0; i < strategy_count(); i++)
		names[i] = strategy_at(i)->name;
	return names;
}

/* One flag c (cli_next_option()'s answer) with its value optarg. */
static void parse_option(struct options *o, int c)
{
	char expected[256];
	bool kind[2], reply[2];

	switch (c) {
	case OPT_TARGETS:
		o->ntargets = parse_ints("--targets", optarg, o->targets, 1, STRESS_MAX_TARGETS);
		break;
	case OPT_TOPOLOGY:
		cli_choices("--topology", optarg, (const char *const[]){ "shared", "per-target" },
			    TOPO_COUNT, o->topo, "shared or per-target");
		break;
	case OPT_STRATEGY:
		cli_choices("--strategy", optarg, strategy_choices(), strategy_count(), o->strat,
			    strategy_names(expected, sizeof(expected), ", "));
		break;
	case OPT_THREADS:
		o->nthreads = parse_ints("--threads", optarg, o->threads, 1, 1024);
		break;
	case OPT_KIND:
		cli_choices("--target-kind", optarg, (const char *const[]){ "processes", "threads" }, 2,
			    kind, "processes or threads");
		if (kind[0] && kind[1])
			usage_error("--target-kind takes one of processes or threads");
		o->base.kind = kind[1] ? TARGETS_THREADS : TARGETS_PROCESSES;
		break;
	case OPT_WAKEUP:
		cli_choices("--wakeup", optarg, (const char *const[]){ "async", "sync" }, 2, o->wake,
			    "async or sync");
		break;
	case OPT_REPLY:
		cli_choices("--reply", optarg, (const char *const[]){ "emulate", "continue" }, 2, reply,
			    "emulate or continue");
		if (reply[0] && reply[1])
			usage_error("--reply takes one of emulate or continue");
		o->base.reply = reply[1] ? REPLY_CONTINUE : REPLY_EMULATE;
		break;
	case OPT_PLACEMENT:
		cli_placements("--placement", optarg, o->placement);
		break;
	case OPT_REQUESTS:
		o->base.requests = cli_int("--requests", optarg, 1, 1000000000);
		o->requests_given = true;
		break;
	case OPT_REQUESTS_TOTAL:
		o->requests_total = cli_int("--requests-total", optarg, 1, 1000000000);
		o->requests_total_given = true;
		break;
	case OPT_DURATION:
		o->base.duration_s = cli_seconds("--duration", optarg, 0.001, 86400);
		o->duration_given = true;
		break;
	case OPT_SIGNALS:
		o->base.signals = true;
		break;
	case OPT_KILL:
		o->base.kill = true;
		break;
	case OPT_DEATH:
		o->base.listener_death = true;
		break;
	case OPT_TOCTOU:
		o->base.toctou = true;
		break;
	case OPT_PENDING:
		o->npending = parse_ints("--pending", optarg, o->pending, 1, STRESS_MAX_TARGETS);
		break;
	case OPT_CYCLES:
		o->base.pending_cycles = cli_int("--cycles", optarg, 10, 10000000);
		break;
	case OPT_TIMEOUT:
		o->base.timeout_s = (int)cli_int("--timeout", optarg, 1, 86400);
		break;
	case OPT_REPS:
		o->reps = (int)cli_int("--benchmark_repetitions", optarg, 1, 64);
		break;
	case OPT_LIST_STRATEGIES:
		for (int i = 0; i < strategy_count(); i++)
			puts(strategy_at(i)->name);
		exit(0);
	}
}

/* What one flag cannot check alone: the flags that exclude each other. */
static void check_combinations(struct options *o)
{
	if (o->duration_given && (o->requests_given || o->requests_total_given))
		usage_error("--duration and --requests%s exclude each other", o->requests_given ? "" : "-total");
	if (o->requests_given && o->requests_total_given)
		usage_error("--requests and --requests-total exclude each other");
	if (o->duration_given)
		o->base.requests = 0;
	if (o->base.kill && o->base.kind == TARGETS_THREADS)
		usage_error("--kill needs --target-kind=processes: SIGKILL ends a whole process");
	for (int i = 0; i < strategy_count(); i++)
		if (o->strat[i] && strategy_at(i)->emulate_only &&
		    (o->base.reply != REPLY_EMULATE || o->base.toctou))
			usage_error("--strategy=%s answers emulating replies only: no --reply=continue "
				    "or --toctou", strategy_at(i)->name);
	if (o->npending && (o->base.signals || o->base.kill || o->base.listener_death || o->base.toctou ||
			    o->duration_given))
		usage_error("--pending runs alone: no fault flags, no --duration");
}

void options_parse(struct options *o, int argc, char **argv)
{
	int c;

	char names[200];

	set_defaults(o);
	snprintf(strategy_help, sizeof(strategy_help), "%s (default %s)",
		 strategy_names(names, sizeof(names), " | "), DEFAULT_STRATEGY);
	while ((c = cli_next_option(&cli_tool_spec, argc, argv)) != -1)
		if (!gb_output_option(&o->output, c, optarg))
			parse_option(o, c);
	cli_no_operands(argc, argv);
	check_combinations(o);
}
