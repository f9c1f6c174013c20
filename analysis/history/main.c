// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-history: every knotif-bench run kept in one SQLite file, with the
 * system it ran on, so a gate can compare against the last N runs or a
 * named baseline instead of one noisy run.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "cli.h"
#include "db.h"
#include "gbread.h"
#include "pool.h"
#include "stats.h"
#include "table.h"

static const char usage_text[] =
"Usage: knotif-history COMMAND [OPTION]... [ARG]\n"
"The history of knotif-bench runs, in SQLite.\n"
"\n"
"Commands:\n"
"  record RUN.json [--name NAME]   store a run (git sha, kernel, host, CPU,\n"
"                                  placements and command line come from its\n"
"                                  context); NAME makes it a named baseline\n"
"  list                            every run, oldest first\n"
"  show [SELECTOR]                 one run's facts and medians (default last)\n"
"  baseline [--baseline SELECTOR] [-o FILE]\n"
"                                  the baseline to compare against, as a result\n"
"                                  file (stdout by default): the selected runs'\n"
"                                  repetitions pooled per benchmark\n"
"\n"
"Options:\n"
"  --db PATH        the history file (default\n"
"                   ${XDG_DATA_HOME:-$HOME/.local/share}/knotif/history.sqlite)\n"
"  --name NAME      (record) name the run\n"
"  --baseline SEL   (baseline) last (the newest run), last:N (the N newest,\n"
"                   pooled), id:N (run #N) or NAME (a named run)\n"
"  -o, --output F   (baseline) write to F instead of stdout\n"
"  -h, --help       this text\n"
"  -V, --version    version and git sha\n"
"\n"
"Exit status: 0 done, 2 bad usage or unusable input (unreadable history,\n"
"malformed result file, a baseline the history does not hold).\n"
"\n"
"Examples:\n"
"  knotif-bench --benchmark_repetitions=9 --benchmark_out=run.json\n"
"  knotif-history record run.json --name v0.1\n"
"  knotif-history baseline --baseline last:3 -o base.json\n"
"  knotif-compare base.json new.json\n";

enum command { CMD_RECORD, CMD_LIST, CMD_SHOW, CMD_BASELINE };

struct options {
	enum command cmd;
	const char *db, *name, *selector, *output, *arg;
	char default_db[4096];
};

static void parse_args(struct options *o, int argc, char **argv)
{
	static const char *const commands[] = { "record", "list", "show", "baseline" };
	enum { OPT_DB = 256, OPT_NAME, OPT_BASELINE };
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;

	memset(o, 0, sizeof(*o));
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		cli_other_option('h', usage_text, argv);
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")))
		cli_other_option('V', usage_text, argv);
	if (argc < 2)
		usage_error("expected a command: record, list, show or baseline (see --help)");
	for (i = 0; i < 4 && strcmp(argv[1], commands[i]); i++)
		;
	if (i == 4)
		usage_error("unknown command '%s' (expected record, list, show or baseline)", argv[1]);
	o->cmd = (enum command)i;
	argc--;
	argv++;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:V", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DB:
			o->db = optarg;
			break;
		case OPT_NAME:
			o->name = optarg;
			break;
		case OPT_BASELINE:
			o->selector = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		default:
			cli_other_option(c, usage_text, argv);
		}
	}
	if (optind < argc)
		o->arg = argv[optind++];
	cli_no_operands(argc, argv);
	if (o->name && o->cmd != CMD_RECORD)
		usage_error("--name belongs to record");
	if (o->output && o->cmd != CMD_BASELINE)
		usage_error("--output belongs to baseline");
	if (o->selector && o->cmd != CMD_BASELINE)
		usage_error("--baseline belongs to baseline");
	switch (o->cmd) {
	case CMD_RECORD:
		if (!o->arg)
			usage_error("record needs a result file: knotif-history record RUN.json");
		break;
	case CMD_LIST:
		if (o->arg)
			usage_error("unexpected argument '%s' (see --help)", o->arg);
		break;
	case CMD_SHOW:
		o->selector = o->arg ? o->arg : "last";
		break;
	case CMD_BASELINE:
		if (o->arg && o->selector)
			usage_error("baseline takes --baseline or an argument, not both");
		o->selector = o->selector ? o->selector : o->arg ? o->arg : "last";
		break;
	}
	if (!o->db) {
		if (history_default_path(o->default_db, sizeof(o->default_db)))
			usage_error("no --db given and neither XDG_DATA_HOME nor HOME is set");
		o->db = o->default_db;
	}
}

/* mkdir -p of the default path's folders; an explicit --db must already have its folder */
static void make_parents(const char *path)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0755) && errno != EEXIST)
			usage_error("cannot create %s: %s", dir, strerror(errno));
		*p = '/';
	}
}

static sqlite3 *open_db(const struct options *o, bool create)
{
	char why[1024];
	sqlite3 *db;

	if (create && o->db == o->default_db)
		make_parents(o->db);
	if (history_open(&db, o->db, create, why, sizeof(why)))
		usage_error("%s", why);
	return db;
}

static int cmd_record(const struct options *o)
{
	struct gb_file run;
	char why[1024];
	long long id;
	sqlite3 *db;

	if (gb_file_load(&run, o->arg, why, sizeof(why)))
		usage_error("%s", why);
	if (!run.count)
		usage_error("%s: no benchmarks to record", o->arg);
	db = open_db(o, true);
	if (history_record(db, &run, o->arg, o->name, &id, why, sizeof(why)))
		usage_error("%s", why);
	printf("recorded run #%lld%s%s%s: %zu benchmarks, git %s, kernel %s, host %s, in %s\n", id,
	       o->name ? " '" : "", o->name ? o->name : "", o->name ? "'" : "", run.count,
	       gb_knotif_str(&run, "git_sha"), gb_knotif_str(&run, "kernel_release"),
	       gb_context_str(&run, "host_name"), o->db);
	gb_file_free(&run);
	sqlite3_close(db);
	return 0;
}

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "-";
}

static int cmd_list(const struct options *o)
{
	static const char *const headers[] = {
		"id", "recorded (UTC)", "name", "git sha", "kernel", "host", "cpu", "benchmarks", "reps",
	};
	static const char sql[] =
		"SELECT id, recorded_at, name, git_sha, kernel_release, host, cpu_model,"
		" (SELECT count(DISTINCT benchmark) FROM results WHERE run_id = runs.id), repetitions"
		" FROM runs ORDER BY id";
	sqlite3 *db = open_db(o, false);
	struct table *t = table_new(9, headers, "rllllllrr");
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		usage_error("%s: %s", o->db, sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *cells[9];

		for (int i = 0; i < 9; i++)
			cells[i] = col(st, i);
		table_add(t, cells);
	}
	sqlite3_finalize(st);
	table_print(t, stdout);
	table_free(t);
	sqlite3_close(db);
	return 0;
}

/* v / scale with 3 decimals and a unit; "-" when there is no value */
static void fmt(char *buf, size_t len, double v, const char *unit, double scale)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f%s", v / scale, unit);
}

static void show_run(sqlite3 *db, long long id)
{
	static const char *const facts[] = {
		"name", "recorded_at", "date", "git_sha", "kernel_release", "kernel_version", "host",
		"cpu_model", "num_cpus", "syscall", "samples_per_repetition", "repetitions",
		"placements", "command_line", "source",
	};
	static const char *const headers[] = { "benchmark", "reps", "p50", "p99", "floor_ratio", "error" };
	struct table *t;
	char sql[512], label[64], why[512];
	struct gb_file run;
	sqlite3_stmt *st;
	size_t errors = 0;
	double *v;

	printf("run #%lld\n", id);
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT %s FROM runs WHERE id = ?", facts[i]);
		sqlite3_prepare_v2(db, sql, -1, &st, NULL);
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW)
			printf("  %-24s %s\n", facts[i], col(st, 0));
		sqlite3_finalize(st);
	}
	snprintf(label, sizeof(label), "run #%lld", id);
	if (history_document(db, id, label, &run, why, sizeof(why)))
		usage_error("%s", why);
	for (size_t i = 0; i < run.count; i++)
		errors += run.series[i].error != NULL;
	/* the error column only when a benchmark could not run */
	t = table_new(errors ? 6 : 5, headers, "lrrrrl");
	for (size_t i = 0; i < run.count; i++) {
		const struct gb_series *s = &run.series[i];
		char reps[16], p50[32], p99[32], fr[32];

		snprintf(reps, sizeof(reps), "%zu", s->reps);
		v = s->fig[GB_P50];
		fmt(p50, sizeof(p50), s->reps ? median_of(v, s->reps) : NAN, " µs", 1000);
		v = s->fig[GB_P99];
		fmt(p99, sizeof(p99), s->reps ? median_of(v, s->reps) : NAN, " µs", 1000);
		v = s->fig[GB_FLOOR_RATIO];
		fmt(fr, sizeof(fr), s->reps ? median_of(v, s->reps) : NAN, "", 1);
		table_add(t, (const char *const[]){ s->name, reps, p50, p99, fr, s->error ? s->error : "" });
	}
	table_print(t, stdout);
	table_free(t);
	gb_file_free(&run);
}

static int cmd_show(const struct options *o)
{
	sqlite3 *db = open_db(o, false);
	long long *ids;
	char why[512];
	size_t n;

	if (history_select(db, o->selector, &ids, &n, why, sizeof(why)))
		usage_error("%s", why);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		show_run(db, ids[i]);
	}
	free(ids);
	sqlite3_close(db);
	return 0;
}

static int cmd_baseline(const struct options *o)
{
	sqlite3 *db = open_db(o, false);
	struct gb_file *runs;
	long long *ids;
	char why[512], (*labels)[32];
	FILE *out = stdout;
	json_t *doc;
	size_t n;

	if (history_select(db, o->selector, &ids, &n, why, sizeof(why)))
		usage_error("%s", why);
	runs = calloc(n, sizeof(*runs));
	labels = calloc(n, sizeof(*labels));
	if (!runs || !labels)
		die("out of memory");
	for (size_t i = 0; i < n; i++) {
		snprintf(labels[i], sizeof(labels[i]), "run #%lld", ids[i]);
		if (history_document(db, ids[i], labels[i], &runs[i], why, sizeof(why)))
			usage_error("%s", why);
		if (i && strcmp(gb_knotif_str(&runs[i], "syscall"), gb_knotif_str(&runs[0], "syscall")))
			fprintf(stderr, "%s: warning: pooling runs that trap different syscalls (#%lld: %s, #%lld: %s)\n",
				knotif_prog, ids[0], gb_knotif_str(&runs[0], "syscall"), ids[i],
				gb_knotif_str(&runs[i], "syscall"));
	}
	doc = history_pool(runs, ids, n, o->selector);
	if (o->output && !(out = fopen(o->output, "w")))
		usage_error("cannot write %s: %s", o->output, strerror(errno));
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) || fputc('\n', out) == EOF ||
	    (out != stdout && fclose(out)))
		die("writing %s: %s", o->output ? o->output : "stdout", strerror(errno));
	if (o->output)
		fprintf(stderr, "%s: baseline %s (%zu run%s) written to %s\n", knotif_prog, o->selector,
			n, n == 1 ? "" : "s", o->output);
	json_decref(doc);
	for (size_t i = 0; i < n; i++)
		gb_file_free(&runs[i]);
	free(runs);
	free(labels);
	free(ids);
	sqlite3_close(db);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;

	knotif_prog = "knotif-history";
	parse_args(&o, argc, argv);
	switch (o.cmd) {
	case CMD_RECORD:
		return cmd_record(&o);
	case CMD_LIST:
		return cmd_list(&o);
	case CMD_SHOW:
		return cmd_show(&o);
	case CMD_BASELINE:
		return cmd_baseline(&o);
	}
	return 2;
}
