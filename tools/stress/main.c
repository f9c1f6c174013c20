// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-stress: many targets, many listeners, one supervisor; throughput,
 * tail latency, supervisor cost and batch sizes of every way to serve
 * seccomp user notifications, under faults, with an exact ledger per run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "gbjson.h"
#include "kernel_features.h"
#include "report.h"
#include "run.h"
#include "supervisor.h"
#include "sysinfo.h"

#define MAX_LIST 16
/* total latency samples kept across targets, per run */
#define SAMPLE_BUDGET (16LL << 20)

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

static const char usage_head[] =
"Usage: knotif-stress [OPTION]...\n"
"N targets loop on a trapped system call; one supervisor serves every\n"
"notification with the chosen strategy. Reports notifications/s, target-side\n"
"round trips, supervisor CPU and system calls per notification, batch sizes,\n"
"ENOENT/EINTR counts, and ends every run with an exact ledger (a mismatch, a\n"
"target left hanging or a leaked descriptor fails the run).\n"
"\n"
"Lists (comma-separated) make a matrix: every combination runs.\n"
"  --targets=LIST              targets per run, 1..10000 (default 10)\n"
"  --topology=LIST             shared (one filter, one listener) | per-target\n"
"                              (a filter and listener each) (default shared)\n"
; /* --strategy's line comes from the registry (usage()) */
static const char usage_tail[] =
"  --threads=LIST              supervisor threads K (default 1; blocking per-target\n"
"                              uses one per listener)\n"
"  --target-kind=KIND          processes (default) | threads\n"
"  --wakeup=LIST               async | sync (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) (default async)\n"
"  --reply=KIND                emulate (default) | continue\n"
"  --placement=LIST            same (everything on one CPU) | cross | free (default free)\n"
"  --requests=N                requests per target (default 1000)\n"
"  --requests-total=N          N requests split across the targets of each run\n"
"  --duration=SECONDS          run for this long instead of a request count\n"
"  --signals                   SIGUSR1 storm at the targets (EINTR, reissued)\n"
"  --kill                      SIGKILL a quarter of the targets inside their call\n"
"  --listener-death            the supervisor exits halfway; targets get ENOSYS and leave\n"
"  --toctou                    trap faccessat; read the path from the target's memory,\n"
"                              check NOTIF_ID_VALID before acting on it\n"
"  --pending=LIST              instead: the pending-notification scaling curve, M\n"
"                              notifications held on one filter (e.g. 1,10,100,1000)\n"
"  --cycles=N                  probe cycles per --pending point (default 2000)\n"
"  --timeout=SECONDS           per run, before it counts as hung (default 120)\n"
"  --benchmark_repetitions=N   run each N times: iteration rows + mean/median/stddev/cv\n"
"                              aggregates; the console shows the median repetition\n"
"  --benchmark_format=FMT      stdout: console (default), json or csv\n"
"  --benchmark_out=FILE        also write results to FILE\n"
"  --benchmark_out_format=FMT  FILE's format: json (default), console or csv\n"
"  -h, --help                  this text\n"
"  -V, --version               version and git sha\n"
"\n"
"Exit status: 0 every run balanced (unsupported ones are reported), 1 a run\n"
"failed or its ledger did not balance, 2 bad usage.\n"
"\n"
"Examples:\n"
"  knotif-stress --targets=1000 --topology=per-target --strategy=epoll --requests=10\n"
"  knotif-stress --strategy=blocking,poll,epoll,io_uring --targets=1,10,100 --placement=same\n"
"  knotif-stress --targets=50 --signals --kill --requests=2000\n"
"  knotif-stress --pending=1,10,100,1000 --placement=same\n";

#define DEFAULT_STRATEGY "epoll"

/* The strategies' names, in registry order, joined by sep. */
static const char *strategy_names(char *out, size_t len, const char *sep)
{
	size_t off = 0;

	out[0] = '\0';
	for (int i = 0; i < strategy_count() && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", i ? sep : "", strategy_at(i)->name);
	return out;
}

static const char *usage(void)
{
	static char text[sizeof(usage_head) + sizeof(usage_tail) + 512];
	char names[256];

	snprintf(text, sizeof(text), "%s  --strategy=LIST             %s (default %s)\n"
		 "  --list-strategies           print the strategies' names, one a line, and exit\n%s",
		 usage_head, strategy_names(names, sizeof(names), " | "), DEFAULT_STRATEGY, usage_tail);
	return text;
}

/* Comma-separated words from choices[] into set[]; exit 2 on a word outside them. */
static void parse_set(const char *flag, const char *list, const char *const *choices, int n, bool *set,
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

enum {
	OPT_TARGETS = 256, OPT_TOPOLOGY, OPT_STRATEGY, OPT_THREADS, OPT_KIND, OPT_WAKEUP, OPT_REPLY,
	OPT_PLACEMENT, OPT_REQUESTS, OPT_REQUESTS_TOTAL, OPT_DURATION, OPT_SIGNALS, OPT_KILL, OPT_DEATH,
	OPT_TOCTOU, OPT_PENDING, OPT_CYCLES, OPT_TIMEOUT, OPT_REPS, OPT_LIST_STRATEGIES,
};

static void parse_args(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "targets", required_argument, NULL, OPT_TARGETS },
		{ "topology", required_argument, NULL, OPT_TOPOLOGY },
		{ "strategy", required_argument, NULL, OPT_STRATEGY },
		{ "list-strategies", no_argument, NULL, OPT_LIST_STRATEGIES },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "target-kind", required_argument, NULL, OPT_KIND },
		{ "wakeup", required_argument, NULL, OPT_WAKEUP },
		{ "reply", required_argument, NULL, OPT_REPLY },
		{ "placement", required_argument, NULL, OPT_PLACEMENT },
		{ "requests", required_argument, NULL, OPT_REQUESTS },
		{ "requests-total", required_argument, NULL, OPT_REQUESTS_TOTAL },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "signals", no_argument, NULL, OPT_SIGNALS },
		{ "kill", no_argument, NULL, OPT_KILL },
		{ "listener-death", no_argument, NULL, OPT_DEATH },
		{ "toctou", no_argument, NULL, OPT_TOCTOU },
		{ "pending", required_argument, NULL, OPT_PENDING },
		{ "cycles", required_argument, NULL, OPT_CYCLES },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "benchmark_repetitions", required_argument, NULL, OPT_REPS },
		GB_OUTPUT_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const topo_names[] = { "shared", "per-target" };
	const char *strat_names[STRATEGY_MAX];
	char strat_expected[256];
	static const char *const placement_names[] = { "same", "cross", "free" };
	static const char *const wake_names[] = { "async", "sync" };
	bool kind[2], reply[2];
	int c;

	memset(o, 0, sizeof(*o));
	for (int i = 0; i < strategy_count(); i++)
		strat_names[i] = strategy_at(i)->name;
	o->targets[o->ntargets++] = 10;
	o->strat[strategy_find(DEFAULT_STRATEGY)] = true;
	o->topo[TOPO_SHARED] = o->placement[PLACEMENT_FREE] = o->wake[0] = true;
	o->threads[o->nthreads++] = 1;
	o->base.requests = 1000;
	o->base.timeout_s = 120;
	o->base.pending_cycles = 2000;
	o->output = (struct gb_output)GB_OUTPUT_DEFAULT;
	o->reps = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		if (gb_output_option(&o->output, c, optarg))
			continue;
		switch (c) {
		case OPT_TARGETS:
			o->ntargets = parse_ints("--targets", optarg, o->targets, 1, STRESS_MAX_TARGETS);
			break;
		case OPT_TOPOLOGY:
			parse_set("--topology", optarg, topo_names, TOPO_COUNT, o->topo, "shared or per-target");
			break;
		case OPT_STRATEGY:
			parse_set("--strategy", optarg, strat_names, strategy_count(), o->strat,
				  strategy_names(strat_expected, sizeof(strat_expected), ", "));
			break;
		case OPT_THREADS:
			o->nthreads = parse_ints("--threads", optarg, o->threads, 1, 1024);
			break;
		case OPT_KIND:
			parse_set("--target-kind", optarg, (const char *const[]){ "processes", "threads" }, 2, kind,
				  "processes or threads");
			if (kind[0] && kind[1])
				usage_error("--target-kind takes one of processes or threads");
			o->base.kind = kind[1] ? TARGETS_THREADS : TARGETS_PROCESSES;
			break;
		case OPT_WAKEUP:
			parse_set("--wakeup", optarg, wake_names, 2, o->wake, "async or sync");
			break;
		case OPT_REPLY:
			parse_set("--reply", optarg, (const char *const[]){ "emulate", "continue" }, 2, reply,
				  "emulate or continue");
			if (reply[0] && reply[1])
				usage_error("--reply takes one of emulate or continue");
			o->base.reply = reply[1] ? REPLY_CONTINUE : REPLY_EMULATE;
			break;
		case OPT_PLACEMENT:
			parse_set("--placement", optarg, placement_names, PLACEMENT_COUNT, o->placement,
				  "same, cross or free");
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
		default:
			cli_other_option(c, usage(), argv);
		}
	}
	cli_no_operands(argc, argv);
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

/*
 * The supervisor holds a listener per target (per-target), the spawner a
 * pidfd per target: raise RLIMIT_NOFILE to its hard limit, or explain why N
 * targets cannot run.
 */
static void raise_nofile(int max_targets)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)max_targets + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
	if (rl.rlim_cur < need && rl.rlim_max >= need) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			die("raising RLIMIT_NOFILE to %llu: %s", (unsigned long long)rl.rlim_max, strerror(errno));
	}
	if (rl.rlim_cur < need)
		usage_error("--targets=%d needs %llu descriptors (a listener and a pidfd per target, plus 64), but "
			    "RLIMIT_NOFILE's hard limit is %llu: raise it (ulimit -Hn, as root) or run fewer targets",
			    max_targets, (unsigned long long)need, (unsigned long long)rl.rlim_max);
}

static void name_run(struct config *c)
{
	int off;

	if (c->pending) {
		snprintf(c->name, sizeof(c->name), "pending/M:%d/%s/placement:%s", c->targets,
			 c->sync_wake ? "sync" : "async", placement_name(c->placement));
		return;
	}
	off = snprintf(c->name, sizeof(c->name), "stress/%s/%s/targets:%d/threads:%d/%s/%s%s",
		       strategy_at(c->strategy)->name, topology_name(c->topo), c->targets, c->threads,
		       c->sync_wake ? "sync" : "async", c->reply == REPLY_CONTINUE ? "continue" : "emulate",
		       c->kind == TARGETS_THREADS ? "/kind:threads" : "");
	off += snprintf(c->name + off, sizeof(c->name) - (size_t)off, "%s%s%s%s/placement:%s",
			c->signals ? "/signals" : "", c->kill ? "/kill" : "",
			c->listener_death ? "/listener-death" : "", c->toctou ? "/toctou" : "",
			placement_name(c->placement));
}

/* Every run of the invocation, placement-major. */
static struct config *plan(const struct options *o, int *count)
{
	int cap = PLACEMENT_COUNT * 2 * (o->npending + TOPO_COUNT * strategy_count() * o->ntargets * o->nthreads), n = 0;
	struct config *runs = calloc((size_t)cap, sizeof(*runs));

	if (!runs)
		die("out of memory");
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		for (int w = 0; o->placement[p] && w < 2; w++) {
			if (!o->wake[w])
				continue;
			for (int i = 0; i < o->npending; i++) {
				struct config *c = &runs[n++];

				*c = o->base;
				c->pending = true;
				c->targets = o->pending[i];
				c->topo = TOPO_SHARED;
				c->kind = TARGETS_PROCESSES;
				c->requests = 1;
				c->sync_wake = w;
				c->placement = (enum placement)p;
				name_run(c);
			}
			for (int t = 0; !o->npending && t < TOPO_COUNT; t++)
				for (int s = 0; o->topo[t] && s < strategy_count(); s++)
					for (int k = 0; o->strat[s] && k < o->ntargets * o->nthreads; k++) {
						struct config *c = &runs[n++];

						*c = o->base;
						c->targets = o->targets[k / o->nthreads];
						c->threads = o->threads[k % o->nthreads];
						c->topo = (enum topology)t;
						c->strategy = s;
						c->sync_wake = w;
						c->placement = (enum placement)p;
						if (o->requests_total)
							c->requests = (o->requests_total + c->targets - 1) / c->targets;
						name_run(c);
					}
		}
	}
	*count = n;
	return runs;
}

/* 0 when c can run here; otherwise "unsupported: ..." in r. */
static int supported(struct config *c, struct run_result *r)
{
	enum feature needs[3] = { FEAT_USER_NOTIF, FEAT_COUNT, FEAT_COUNT };
	char why[STRESS_ERROR_LEN];

	if (c->sync_wake)
		needs[1] = FEAT_SYNC_WAKE_UP;
	if (c->reply == REPLY_CONTINUE)
		needs[2] = FEAT_NOTIF_CONTINUE;
	for (int i = 0; i < 3; i++) {
		if (needs[i] != FEAT_COUNT && feature_probe(needs[i], why, sizeof(why)))
			goto unsupported;
	}
	if (placement_cpus(c->placement, c->cpus, why, sizeof(why)))
		goto unsupported;
	if (!c->pending && strategy_probe(c->strategy, why, sizeof(why)))
		goto unsupported;
	return 0;
unsupported:
	memset(r, 0, sizeof(*r));
	r->c = *c;
	r->status = RUN_UNSUPPORTED;
	snprintf(r->message, sizeof(r->message), "unsupported: %s", why);
	return -1;
}

static json_t *run_context(const struct options *o, int argc, char **argv, const struct run_result *r, int n)
{
	/* n: every repetition of every run */
	json_t *ctx = gb_context(argc, argv), *k = json_object_get(ctx, "knotif"), *pl = json_object();
	struct rlimit rl = { 0, 0 };

	getrlimit(RLIMIT_NOFILE, &rl);
	json_object_set_new(k, "tool", json_string("knotif-stress"));
	json_object_set_new(k, "syscall", json_string(o->base.toctou ? "faccessat" : "getppid"));
	json_object_set_new(k, "requests_per_target", json_integer(o->base.requests));
	json_object_set_new(k, "requests_total", json_integer(o->requests_total));
	json_object_set_new(k, "duration_s", json_real(o->base.duration_s));
	json_object_set_new(k, "pending_cycles", json_integer(o->base.pending_cycles));
	json_object_set_new(k, "rlimit_nofile", json_integer((json_int_t)rl.rlim_cur));
	json_object_set_new(k, "repetitions", json_integer(o->reps));
	for (int i = 0; i < n; i++)
		if (r[i].status == RUN_OK && !json_object_get(pl, placement_name(r[i].c.placement)))
			json_object_set_new(pl, placement_name(r[i].c.placement),
					    json_pack("{s:i,s:i}", "target_cpu", r[i].c.cpus[0],
						      "supervisor_cpu", r[i].c.cpus[1]));
	json_object_set_new(k, "placements", pl);
	json_object_set_new(k, "clock_in_vdso", json_boolean(sysinfo_clock_in_vdso()));
	return ctx;
}

struct console_args {
	json_t *ctx;
	const struct run_result *r;
	int n, reps;
};

static void print_console(FILE *out, const void *arg)
{
	const struct console_args *a = arg;
	json_t *ctx = a->ctx, *k = json_object_get(ctx, "knotif");

	fprintf(out, "# knotif-stress %s (%s) on %s: Linux %s, %s, %lld CPUs; syscall %s; "
		"round trips measured by the targets (CLOCK_MONOTONIC)\n",
		json_string_value(json_object_get(k, "version")),
		json_string_value(json_object_get(k, "git_sha")),
		json_string_value(json_object_get(ctx, "host_name")),
		json_string_value(json_object_get(k, "kernel_release")),
		json_string_value(json_object_get(k, "cpu_model")),
		(long long)json_integer_value(json_object_get(ctx, "num_cpus")),
		json_string_value(json_object_get(k, "syscall")));
	report_console(a->r, a->n, a->reps, out);
}

int main(int argc, char **argv)
{
	struct options o;
	struct config *runs;
	struct run_result *res;
	struct stress_mem mem;
	json_t *ctx, *rows;
	int n, failed = 0, max_targets = 1, max_threads;
	int64_t max_samples = 1;

	knotif_prog = "knotif-stress";
	cpu_init();
	parse_args(&o, argc, argv);
	runs = plan(&o, &n);
	for (int i = 0; i < n; i++) {
		/* every round trip of a run is kept, up to SAMPLE_BUDGET across its targets */
		int64_t need = runs[i].pending ? runs[i].pending_cycles + 1 : runs[i].requests;
		int64_t fair = SAMPLE_BUDGET / runs[i].targets;

		runs[i].sample_cap = need && need < fair ? need : fair;
		if (runs[i].sample_cap * runs[i].targets > max_samples)
			max_samples = runs[i].sample_cap * runs[i].targets;
		if (runs[i].targets > max_targets)
			max_targets = runs[i].targets;
	}
	raise_nofile(max_targets);
	gb_output_prepare(&o.output);
	max_threads = max_targets + 1;
	for (int i = 0; i < o.nthreads; i++)
		if (o.threads[i] + 1 > max_threads)
			max_threads = o.threads[i] + 1;
	if (stress_mem_map(&mem, max_targets, max_threads, max_samples))
		die("mapping shared counters for %d targets: %s", max_targets, strerror(errno));
	res = calloc((size_t)(n * o.reps), sizeof(*res));
	if (!res)
		die("out of memory");
	for (int i = 0; i < n; i++) {
		struct run_result *g = &res[i * o.reps];

		if (supported(&runs[i], &g[0])) {
			for (int rep = 1; rep < o.reps; rep++)
				g[rep] = g[0];
			continue;
		}
		for (int rep = 0; rep < o.reps; rep++) {
			if (isatty(STDERR_FILENO))
				fprintf(stderr, "\r\033[K[%d/%d] %s #%d", i + 1, n, runs[i].name, rep);
			if (runs[i].pending)
				run_pending(&runs[i], &mem, &g[rep]);
			else
				run_stress(&runs[i], &mem, &g[rep]);
			if (g[rep].status == RUN_FAILED) {
				failed++;
				fprintf(stderr, "%s%s: %s: %s\n", isatty(STDERR_FILENO) ? "\r\033[K" : "",
					knotif_prog, runs[i].name, g[rep].message);
			}
		}
	}
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	ctx = run_context(&o, argc, argv, res, n * o.reps);
	rows = report_rows(res, n, o.reps);
	gb_output_write(&o.output, ctx, rows, print_console,
			&(struct console_args){ ctx, res, n, o.reps });
	json_decref(ctx);
	json_decref(rows);
	stress_mem_unmap(&mem);
	free(res);
	free(runs);
	return failed ? 1 : 0;
}
