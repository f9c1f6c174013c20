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

enum {
	OPT_TARGETS = 256, OPT_TOPOLOGY, OPT_STRATEGY, OPT_THREADS, OPT_KIND, OPT_WAKEUP, OPT_REPLY,
	OPT_PLACEMENT, OPT_REQUESTS, OPT_REQUESTS_TOTAL, OPT_DURATION, OPT_SIGNALS, OPT_KILL, OPT_DEATH,
	OPT_TOCTOU, OPT_PENDING, OPT_CYCLES, OPT_TIMEOUT, OPT_REPS, OPT_LIST_STRATEGIES,
};

/* --strategy's help names the registry's strategies: written by options_parse() */
static char strategy_help[256];

static const struct cli_option stress_options[] = {
	{ "targets", OPT_TARGETS, required_argument, "--targets=LIST",
	  "targets per run, 1..10000 (default 10)" },
	{ "topology", OPT_TOPOLOGY, required_argument, "--topology=LIST",
	  "shared (one filter, one listener) | per-target\n"
	  "(a filter and listener each) (default shared)" },
	{ "strategy", OPT_STRATEGY, required_argument, "--strategy=LIST", strategy_help },
	{ "list-strategies", OPT_LIST_STRATEGIES, no_argument, "--list-strategies",
	  "print the strategies' names, one a line, and exit" },
	{ "threads", OPT_THREADS, required_argument, "--threads=LIST",
	  "supervisor threads K (default 1; blocking per-target\n"
	  "uses one per listener)" },
	{ "target-kind", OPT_KIND, required_argument, "--target-kind=KIND",
	  "processes (default) | threads" },
	{ "wakeup", OPT_WAKEUP, required_argument, "--wakeup=LIST",
	  "async | sync (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) (default async)" },
	{ "reply", OPT_REPLY, required_argument, "--reply=KIND", "emulate (default) | continue" },
	{ "placement", OPT_PLACEMENT, required_argument, "--placement=LIST",
	  "same (everything on one CPU) | cross | free (default free)" },
	{ "requests", OPT_REQUESTS, required_argument, "--requests=N",
	  "requests per target (default 1000)" },
	{ "requests-total", OPT_REQUESTS_TOTAL, required_argument, "--requests-total=N",
	  "N requests split across the targets of each run" },
	{ "duration", OPT_DURATION, required_argument, "--duration=SECONDS",
	  "run for this long instead of a request count" },
	{ "signals", OPT_SIGNALS, no_argument, "--signals",
	  "SIGUSR1 storm at the targets (EINTR, reissued)" },
	{ "kill", OPT_KILL, no_argument, "--kill", "SIGKILL a quarter of the targets inside their call" },
	{ "listener-death", OPT_DEATH, no_argument, "--listener-death",
	  "the supervisor exits halfway; targets get ENOSYS and leave" },
	{ "toctou", OPT_TOCTOU, no_argument, "--toctou",
	  "trap faccessat; read the path from the target's memory,\n"
	  "check NOTIF_ID_VALID before acting on it" },
	{ "pending", OPT_PENDING, required_argument, "--pending=LIST",
	  "instead: the pending-notification scaling curve, M\n"
	  "notifications held on one filter (e.g. 1,10,100,1000)" },
	{ "cycles", OPT_CYCLES, required_argument, "--cycles=N",
	  "probe cycles per --pending point (default 2000)" },
	{ "timeout", OPT_TIMEOUT, required_argument, "--timeout=SECONDS",
	  "per run, before it counts as hung (default 120)" },
	{ "benchmark_repetitions", OPT_REPS, required_argument, "--benchmark_repetitions=N",
	  "run each N times: iteration rows + mean/median/stddev/cv\n"
	  "aggregates; the console shows the median repetition" },
	CLI_OPTIONS_END,
};
static const struct cli_option program_options[] = {
	CLI_HELP_OPTION,
	CLI_VERSION_OPTION,
	CLI_OPTIONS_END,
};

static const struct cli_spec spec = {
	.head =
"Usage: knotif-stress [OPTION]...\n"
"N targets loop on a trapped system call; one supervisor serves every\n"
"notification with the chosen strategy. Reports notifications/s, target-side\n"
"round trips, supervisor CPU and system calls per notification, batch sizes,\n"
"ENOENT/EINTR counts, and ends every run with an exact ledger (a mismatch, a\n"
"target left hanging or a leaked descriptor fails the run).\n"
"\n"
"Lists (comma-separated) make a matrix: every combination runs.\n",
	.tables = (const struct cli_option *const[]){ stress_options, gb_output_options,
						      program_options, NULL },
	.tail =
"\n"
"Exit status: 0 every run balanced (unsupported ones are reported), 1 a run\n"
"failed or its ledger did not balance, 2 bad usage.\n"
"\n"
"Examples:\n"
"  knotif-stress --targets=1000 --topology=per-target --strategy=epoll --requests=10\n"
"  knotif-stress --strategy=blocking,poll,epoll,io_uring --targets=1,10,100 --placement=same\n"
"  knotif-stress --targets=50 --signals --kill --requests=2000\n"
"  knotif-stress --pending=1,10,100,1000 --placement=same\n",
	.column = 30,
};

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
	while ((c = cli_next_option(&spec, argc, argv)) != -1)
		if (!gb_output_option(&o->output, c, optarg))
			parse_option(o, c);
	cli_no_operands(argc, argv);
	check_combinations(o);
}
