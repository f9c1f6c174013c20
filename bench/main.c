// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-bench: the round trip of every way to intercept a system call,
 * side by side in one run, with the ping-pong floor measured beside it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "check.h"
#include "cli.h"
#include "counters.h"
#include "gbjson.h"
#include "harness.h"
#include "mknod_as.h"
#include "progress.h"
#include "result.h"
#include "sysinfo.h"
#include "trace_phases.h"

struct options {
	const char *filter;
	regex_t filter_re;
	bool filter_negated;
	int reps;
	double min_time_s;
	struct gb_output output;
	bool list;
	bool placements[PLACEMENT_COUNT];
	const struct syscall_desc *sys;
	int64_t samples;
	int timeout_s;
	bool trace;
	const char *samples_out;
	enum counters_source counters;
};

/* OPT_*, cli_tool_options[] and cli_tool_spec (--help), from bench_options.def */
#define CLI_OPTIONS_DEF "bench_options.def"
#include "cli_options_def.h"

static void parse_args(struct options *o, int argc, char **argv)
{
	int c;

	*o = (struct options){
		.reps = 5,
		.output = GB_OUTPUT_DEFAULT,
		.placements = { [PLACEMENT_SAME] = true, [PLACEMENT_CROSS] = true },
		.sys = syscall_lookup("getppid"),
		.samples = 5000,
		.timeout_s = 120,
	};
	while ((c = cli_next_option(&cli_tool_spec, argc, argv)) != -1) {
		if (gb_output_option(&o->output, c, optarg))
			continue;
		switch (c) {
		case OPT_FILTER:
			o->filter = optarg;
			break;
		case OPT_REPS:
			o->reps = (int)cli_int("--benchmark_repetitions", optarg, 1, BENCH_MAX_REPS);
			break;
		case OPT_MIN_TIME:
			o->min_time_s = cli_seconds("--benchmark_min_time", optarg, 0, 3600);
			break;
		case OPT_LIST:
			o->list = cli_bool("--benchmark_list_tests", optarg);
			break;
		case OPT_PLACEMENT:
			cli_placements("--placement", optarg, o->placements);
			break;
		case OPT_SYSCALL:
			o->sys = syscall_lookup(optarg);
			if (!o->sys)
				usage_error("invalid value for --syscall: '%s' (expected one of %s)", optarg,
					    syscall_names());
			break;
		case OPT_SAMPLES:
			o->samples = cli_int("--samples", optarg, 1, 10000000);
			break;
		case OPT_SAMPLES_OUT:
			o->samples_out = optarg;
			break;
		case OPT_TIMEOUT:
			o->timeout_s = (int)cli_int("--timeout", optarg, 1, 86400);
			break;
		case OPT_TRACE:
			o->trace = true;
			break;
		case OPT_COUNTERS:
			if (counters_source_parse(optarg, &o->counters))
				usage_error("invalid value for --counters: '%s' (expected procfs or perf)", optarg);
			break;
		}
	}
	cli_no_operands(argc, argv);
	if (o->filter) {
		const char *re = o->filter;
		int err;

		o->filter_negated = re[0] == '-';
		if (o->filter_negated)
			re++;
		err = regcomp(&o->filter_re, re, REG_EXTENDED | REG_NOSUB);
		if (err) {
			char msg[128];

			regerror(err, &o->filter_re, msg, sizeof(msg));
			usage_error("invalid value for --benchmark_filter: '%s' (%s)", o->filter, msg);
		}
	}
}

static bool selected(const struct options *o, const char *name)
{
	if (!o->filter)
		return true;
	return (regexec(&o->filter_re, name, 0, NULL, 0) == 0) != o->filter_negated;
}

/* Every benchmark of the run, placement-major; floors run when their placement does. */
static struct result *plan(const struct options *o, int *count)
{
	struct result *res = calloc((size_t)(method_count() * PLACEMENT_COUNT), sizeof(*res));
	int n = 0;

	if (!res)
		die("out of memory");
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		bool placement_used = false;
		int first = n;

		if (!o->placements[p])
			continue;
		for (int i = 0; i < method_count(); i++) {
			struct result *r = &res[n++];
			bool default_syscall = !strcmp(o->sys->name, "getppid");

			r->m = method_at(i);
			r->placement = (enum placement)p;
			snprintf(r->name, sizeof(r->name), "%s%s%s/placement:%s", r->m->name,
				 default_syscall ? "" : "/syscall:", default_syscall ? "" : o->sys->name,
				 placement_name(r->placement));
			r->selected = selected(o, r->name) &&
				      (!r->m->on_request || (o->filter && !o->filter_negated));
			placement_used |= r->selected;
		}
		for (int i = first; i < n; i++)
			if (!res[i].selected && !(placement_used && res[i].m->kind == KIND_FLOOR))
				res[i].status = RESULT_SKIPPED;
	}
	*count = n;
	return res;
}

/* 0 when every feature the method needs is there; else the reason. */
static int features_ok(const struct method *m, char *why, size_t len)
{
	char reason[BENCH_ERROR_LEN - sizeof("unsupported: ")];

	for (int i = 0; i < 3 && m->needs[i] != FEAT_COUNT; i++) {
		if (feature_probe(m->needs[i], reason, sizeof(reason))) {
			snprintf(why, len, "unsupported: %s", reason);
			return -1;
		}
	}
	return 0;
}

static void write_samples(FILE *f, const struct result *r, const struct bench_shared *sh,
			  int64_t per_rep_cap)
{
	for (int rep = 0; rep < sh->reps_done; rep++)
		for (int64_t i = 0; i < sh->rep[rep].iterations; i++)
			fprintf(f, "%s,%d,%lld,%lld\n", r->name, rep, (long long)i,
				(long long)sh->samples[rep * per_rep_cap + i]);
}

static void run_one(const struct options *o, struct result *r, struct bench *b, FILE *samples_out)
{
	char why[BENCH_ERROR_LEN - 16];

	if (placement_cpus(r->placement, r->cpus, why, sizeof(why))) {
		r->status = RESULT_UNSUPPORTED;
		snprintf(r->message, sizeof(r->message), "unsupported: %s", why);
		return;
	}
	if (features_ok(r->m, r->message, sizeof(r->message))) {
		r->status = RESULT_UNSUPPORTED;
		return;
	}
	b->m = r->m;
	b->placement = r->placement;
	b->cpus[0] = r->cpus[0];
	b->cpus[1] = r->cpus[1];
	if (harness_run(b, o->timeout_s)) {
		r->status = RESULT_FAILED;
		snprintf(r->message, sizeof(r->message), "%s", b->shared->error);
		return;
	}
	if (samples_out && r->selected)
		write_samples(samples_out, r, b->shared, b->per_rep_cap);
	r->reps = b->shared->reps_done;
	r->timer_ns = b->shared->timer_ns;
	r->warmup = b->shared->warmup;
	for (int rep = 0; rep < r->reps; rep++)
		result_add_rep(r, rep, b->shared->samples + rep * b->per_rep_cap, &b->shared->rep[rep]);
	r->status = RESULT_OK;
}

static json_t *run_context(const struct options *o, int argc, char **argv, const struct result *res,
			   int n, const struct bench_shared *last, bool locked)
{
	json_t *ctx = gb_context(argc, argv), *k = json_object_get(ctx, "knotif"), *pl = json_object();

	json_object_set_new(k, "syscall", json_string(o->sys->name));
	json_object_set_new(k, "samples_per_repetition", json_integer(o->samples));
	json_object_set_new(k, "repetitions", json_integer(o->reps));
	json_object_set_new(k, "min_time_s", json_real(o->min_time_s));
	for (int i = 0; i < n; i++) {
		if (res[i].status == RESULT_OK)
			gb_context_placement(pl, placement_name(res[i].placement), res[i].cpus);
		if (res[i].status == RESULT_OK && !json_object_get(k, "timer_ns"))
			json_object_set_new(k, "timer_ns", json_integer(res[i].timer_ns));
	}
	/* no benchmark ran (all skipped): the clock's cost still describes the machine */
	if (!json_object_get(k, "timer_ns"))
		json_object_set_new(k, "timer_ns", json_integer(timer_overhead()));
	json_object_set_new(k, "placements", pl);
	json_object_set_new(k, "floor", results_floor_context(res, n));
	json_object_set_new(k, "counters", json_string(counters_source_name(last->counters_source)));
	/* true only if every measured run had both its processes locked */
	json_object_set_new(k, "mlockall", json_boolean(locked));
	json_object_set_new(k, "clock_in_vdso", json_boolean(sysinfo_clock_in_vdso()));
	return ctx;
}

static void print_console_header(FILE *out, json_t *ctx)
{
	json_t *k = json_object_get(ctx, "knotif");

	fprintf(out, "# knotif-bench %s (%s) on %s: Linux %s, %s, %lld CPUs\n",
		json_string_value(json_object_get(k, "version")),
		json_string_value(json_object_get(k, "git_sha")),
		json_string_value(json_object_get(ctx, "host_name")),
		json_string_value(json_object_get(k, "kernel_release")),
		json_string_value(json_object_get(k, "cpu_model")),
		(long long)json_integer_value(json_object_get(ctx, "num_cpus")));
	fprintf(out, "# syscall %s; %lld repetitions x %lld samples; timer pair %lld ns; counters: %s; "
		"figures are medians over repetitions\n",
		json_string_value(json_object_get(k, "syscall")),
		(long long)json_integer_value(json_object_get(k, "repetitions")),
		(long long)json_integer_value(json_object_get(k, "samples_per_repetition")),
		(long long)json_integer_value(json_object_get(k, "timer_ns")),
		json_string_value(json_object_get(k, "counters")));
}

static void print_floors(FILE *out, json_t *ctx)
{
	json_t *floors = json_object_get(json_object_get(ctx, "knotif"), "floor"), *v;
	const char *p;

	json_object_foreach(floors, p, v) {
		json_t *cs;
		const char *name;

		if (json_is_null(json_object_get(v, "benchmark")))
			fprintf(out, "# no floor at placement:%s: %s\n", p,
				json_string_value(json_object_get(v, "reason")));
		else
			fprintf(out, "# floor at placement:%s = %s, p50 %.3f µs\n", p,
				json_string_value(json_object_get(v, "benchmark")),
				json_real_value(json_object_get(v, "p50")) / 1000.0);
		json_object_foreach(json_object_get(v, "not_blocking"), name, cs)
			fprintf(out, "# %s is no floor: %.2f context switches per round trip (it did not block)\n",
				name, json_real_value(cs));
	}
}

struct console_args {
	json_t *ctx;
	const struct result *res;
	int n;
	const struct trace_phases *tp;
};

static void print_console(FILE *out, const void *arg)
{
	const struct console_args *a = arg;

	print_console_header(out, a->ctx);
	results_print_console(a->res, a->n, out);
	print_floors(out, a->ctx);
	if (a->tp)
		trace_phases_print(a->tp, out);
}

/*
 * "knotif-bench compare BASE.json NEW.json" is the gate, knotif-compare,
 * installed beside this binary: run it with the remaining arguments.
 */
static __attribute__((noreturn)) void exec_compare(char **argv)
{
	char self[4096], tool[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n < 0)
		die("cannot find my own path to locate knotif-compare: %s", strerror(errno));
	self[n] = 0;
	slash = strrchr(self, '/');
	*slash = 0;
	snprintf(tool, sizeof(tool), "%s/knotif-compare", self);
	argv[0] = tool;
	execv(tool, argv);
	die("cannot run %s: %s", tool, strerror(errno));
}

int main(int argc, char **argv)
{
	struct options o;
	struct result *res;
	struct bench b;
	FILE *samples_out = NULL;
	json_t *ctx, *rows;

	/* agent/mknod-exec re-execs us as its helper, the way Incus re-execs itself */
	if (argc > 1 && !strcmp(argv[1], MKNOD_AS_HELPER_ARG))
		return mknod_as_helper_main(argc - 2, argv + 2);
	struct trace_phases *tp = NULL;
	int n, ran = 0, failed = 0, total = 0;
	bool target_locked = true, sup_locked = true;
	size_t shared_len;

	knotif_prog = "knotif-bench";
	if (argc > 1 && !strcmp(argv[1], "compare"))
		exec_compare(argv + 1);
	cpu_init();
	parse_args(&o, argc, argv);
	res = plan(&o, &n);
	for (int i = 0; i < n; i++)
		total += res[i].selected;
	if (o.list) {
		/* what the filter names, on-request methods too: a filter can ask for them (the ctests) */
		for (int i = 0; i < n; i++)
			if (selected(&o, res[i].name))
				puts(res[i].name);
		free(res);
		if (o.filter)
			regfree(&o.filter_re);
		return 0;
	}
	if (!total)
		usage_error("no benchmark matches --benchmark_filter='%s' (see --benchmark_list_tests)", o.filter);

	memset(&b, 0, sizeof(b));
	b.sys = o.sys;
	b.reps = o.reps;
	b.samples_per_rep = o.samples;
	b.min_time_s = o.min_time_s;
	b.counters_wanted = o.counters;
	b.per_rep_cap = o.samples;
	if (o.min_time_s > 0 && (int64_t)(o.min_time_s * 1e9 / 50) > b.per_rep_cap)
		b.per_rep_cap = (int64_t)(o.min_time_s * 1e9 / 50);	/* room for 50 ns round trips */
	if (b.per_rep_cap > (64LL << 20) / o.reps)
		b.per_rep_cap = (64LL << 20) / o.reps;
	if (b.per_rep_cap < o.samples)
		usage_error("--samples=%lld x --benchmark_repetitions=%d exceeds 64M samples",
			    (long long)o.samples, o.reps);
	shared_len = sizeof(struct bench_shared) + (size_t)(b.per_rep_cap * o.reps) * sizeof(int64_t);
	b.shared = mmap(NULL, shared_len, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (b.shared == MAP_FAILED)
		die("mmap of %zu bytes for samples: %s", shared_len, strerror(errno));
	gb_output_prepare(&o.output);
	if (o.samples_out) {
		samples_out = fopen(o.samples_out, "w");
		if (!samples_out)
			usage_error("cannot write --samples_out=%s: %s", o.samples_out, strerror(errno));
		fputs("name,repetition,index,ns\n", samples_out);
	}
	if (!sysinfo_clock_in_vdso())
		fprintf(stderr, "%s: warning: clocksource '%s' has no vDSO path; clock reads are syscalls "
			"that ptrace-syscall and sud also intercept\n", knotif_prog, sysinfo_clocksource());

	if (o.trace)
		tp = trace_phases_new();
	for (int i = 0; i < n; i++) {
		if (res[i].status == RESULT_SKIPPED)
			continue;
		progress_show(++ran, n, res[i].name, -1);
		if (tp && res[i].selected && res[i].m->trace_kind)
			trace_phases_begin(tp);
		else if (tp && res[i].selected)
			trace_phases_not_understood(tp, res[i].name);
		run_one(&o, &res[i], &b, samples_out);
		if (res[i].status == RESULT_OK) {
			target_locked &= b.shared->target_mlocked;
			sup_locked &= b.shared->sup_mlocked;
		}
		if (tp)
			trace_phases_end(tp, res[i].status == RESULT_OK ? res[i].name : NULL,
					 res[i].m->trace_kind);
		if (res[i].status == RESULT_FAILED) {
			failed++;
			progress_failed(res[i].name, res[i].message);
		}
	}
	progress_end();
	if (!target_locked || !sup_locked)
		fprintf(stderr, "%s: note: mlockall failed in the %s (needs CAP_IPC_LOCK or a larger "
			"RLIMIT_MEMLOCK): page faults may reach the tail\n", knotif_prog,
			!target_locked && !sup_locked ? "target and the supervisor" :
			!target_locked ? "target" : "supervisor");
	if (samples_out && fclose(samples_out))
		die("writing %s: %s", o.samples_out, strerror(errno));

	results_apply_floor(res, n);
	ctx = run_context(&o, argc, argv, res, n, b.shared, target_locked && sup_locked);
	rows = results_to_rows(res, n);
	if (tp)
		trace_phases_annotate(tp, rows, ctx);
	gb_output_write(&o.output, ctx, rows, print_console,
			&(struct console_args){ ctx, res, n, tp });
	json_decref(ctx);
	json_decref(rows);
	trace_phases_free(tp);
	munmap(b.shared, shared_len);
	free(res);
	if (o.filter)
		regfree(&o.filter_re);
	return failed ? 1 : 0;
}
