// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-stress: many targets, many listeners, one supervisor; throughput,
 * tail latency, supervisor cost and batch sizes of every way to serve
 * seccomp user notifications, under faults, with an exact ledger per run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "check.h"
#include "gbjson.h"
#include "kernel_features.h"
#include "progress.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "supervisor.h"
#include "sysinfo.h"

/* total latency samples kept across targets, per run */
#define SAMPLE_BUDGET (16LL << 20)

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
		if (r[i].status == RUN_OK)
			gb_context_placement(pl, placement_name(r[i].c.placement), r[i].c.cpus);
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
	options_parse(&o, argc, argv);
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
			progress_show(i + 1, n, runs[i].name, rep);
			if (runs[i].pending)
				run_pending(&runs[i], &mem, &g[rep]);
			else
				run_stress(&runs[i], &mem, &g[rep]);
			if (g[rep].status == RUN_FAILED) {
				failed++;
				progress_failed(runs[i].name, g[rep].message);
			}
		}
	}
	progress_end();
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
