// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-history: every knotif-bench run kept with the system it ran on —
 * in one SQLite file (one machine) or on a PostgreSQL server (a fleet of
 * runners) — so a gate compares against the last N runs of its own
 * machine class or a named baseline instead of one noisy run.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "class.h"
#include "cli.h"
#include "cli_options.h"
#include "db.h"
#include "escape.h"
#include "gbread.h"
#include "stats.h"
#include "table.h"
#include "trend.h"

/* OPT_*, cli_tool_options[] and cli_tool_spec (--help), from history_options.def */
#define CLI_OPTIONS_DEF "history_options.def"
#include "cli_options_def.h"

enum command { CMD_RECORD, CMD_LIST, CMD_SHOW, CMD_BASELINE, CMD_TREND, CMD_COUNT };

struct options {
	enum command cmd;
	const char *db, *name, *gate, *selector, *output, *arg, *class_of, *format;
	char machine_class[512];
	bool class_given;
	char default_db[4096];
};

static void parse_args(struct options *o, int argc, char **argv)
{
	static const char *const commands[CMD_COUNT] = { "record", "list", "show", "baseline", "trend" };
	const char *env = getenv("KNOTIF_DB"), *cmd;
	int c, i;

	memset(o, 0, sizeof(*o));
	/* options may come before or after the command: getopt moves the operands last */
	while ((c = cli_next_option(&cli_tool_spec, argc, argv)) != -1) {
		switch (c) {
		case OPT_DB:
			o->db = optarg;
			break;
		case OPT_NAME:
			o->name = optarg;
			break;
		case OPT_GATE:
			if (strcmp(optarg, "pass") && strcmp(optarg, "fail"))
				usage_error("invalid value for --gate: '%s' (expected pass or fail)", optarg);
			o->gate = optarg;
			break;
		case OPT_BASELINE:
			o->selector = optarg;
			break;
		case OPT_CLASS:
			snprintf(o->machine_class, sizeof(o->machine_class), "%s", optarg);
			o->class_given = true;
			break;
		case OPT_CLASS_OF:
			o->class_of = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "table") && strcmp(optarg, "json"))
				usage_error("invalid value for --format: '%s' (expected table or json)", optarg);
			o->format = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		}
	}
	if (optind >= argc)
		usage_error("expected a command: record, list, show, baseline or trend (see --help)");
	cmd = argv[optind++];
	for (i = 0; i < CMD_COUNT && strcmp(cmd, commands[i]); i++)
		;
	if (i == CMD_COUNT)
		usage_error("unknown command '%s' (expected record, list, show, baseline or trend)", cmd);
	o->cmd = (enum command)i;
	if (optind < argc)
		o->arg = argv[optind++];
	cli_no_operands(argc, argv);
	if (o->name && o->cmd != CMD_RECORD)
		usage_error("--name belongs to record");
	if (o->gate && o->cmd != CMD_RECORD)
		usage_error("--gate belongs to record");
	if (o->output && o->cmd != CMD_BASELINE && o->cmd != CMD_TREND)
		usage_error("--output belongs to baseline and trend");
	if (o->selector && o->cmd != CMD_BASELINE)
		usage_error("--baseline belongs to baseline");
	if ((o->class_given || o->class_of) && o->cmd != CMD_BASELINE && o->cmd != CMD_TREND)
		usage_error("--class and --class-of belong to baseline and trend");
	if (o->class_given && o->class_of)
		usage_error("--class and --class-of select the same thing: give one");
	if (o->format && o->cmd != CMD_TREND)
		usage_error("--format belongs to trend");
	switch (o->cmd) {
	case CMD_RECORD:
		if (!o->arg)
			usage_error("record needs a result file: knotif-history record RUN.json");
		break;
	case CMD_LIST:
	case CMD_TREND:
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
	case CMD_COUNT:
		break;
	}
	if (!o->db && env && *env)
		o->db = env;
	if (!o->db) {
		if (history_default_path(o->default_db, sizeof(o->default_db)))
			usage_error("no --db given and neither KNOTIF_DB, XDG_DATA_HOME nor HOME is set");
		o->db = o->default_db;
	}
}

/* --class-of: the class of a result file, checked before the database is touched */
static void resolve_class(struct options *o)
{
	struct gb_file run;
	char why[1024];

	if (!o->class_of)
		return;
	if (gb_file_load(&run, o->class_of, why, sizeof(why)))
		usage_error("%s", why);
	history_machine_class(&run, o->machine_class, sizeof(o->machine_class));
	o->class_given = true;
	gb_file_free(&run);
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

/* a failure of the database itself (a server gone away, a full disk) is 1; what the user gave us, 2 */
static _Noreturn void db_failed(int err, const char *why)
{
	die_code(err == -EPIPE || err == -EIO || err == -EAGAIN || err == -ENOMEM || err == -ENOSPC ? 1 : EXIT_USAGE,
		 "%s", why);
}

static struct store *open_db(const struct options *o, bool create)
{
	char why[1024];
	struct store *s;
	int err;

	if (create && o->db == o->default_db)
		make_parents(o->db);
	err = history_open(&s, o->db, create, why, sizeof(why));
	/* opening: -EIO is a history that cannot be used (not SQLite, no such database), 2 */
	if (err)
		die_code(err == -EPIPE || err == -ENOSPC ? 1 : EXIT_USAGE, "%s", why);
	return s;
}

static const char *class_or_null(const struct options *o)
{
	return o->class_given ? o->machine_class : NULL;
}

/*
 * Where baseline and trend write: stdout, or -o F. F is written whole or
 * not at all: into a temporary file beside it, renamed over it once every
 * byte is written (a full disk leaves the F there was, not half of a new
 * one). A FIFO or a device is written straight through: renaming over it
 * would put a file where it was (as root, -o /dev/null would take the
 * device away from the system).
 */
struct output {
	FILE *f;
	const char *name;	/* for messages: F or "stdout" */
	char *path;		/* what tmp is renamed to: F, or the file a symbolic link F names */
	char *tmp;		/* the temporary file beside it; NULL when written straight through */
};

/* no temporary file left behind, then one line and exit 1 */
static _Noreturn void output_failed(struct output *out, int err)
{
	if (out->tmp)
		unlink(out->tmp);
	die("writing %s: %s", out->name, strerror(err));
}

/* the mode a file written in place would have had: F's own, else 0666 less the umask */
static mode_t output_mode(const struct stat *sb, bool exists)
{
	mode_t mask;

	if (exists)
		return sb->st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/*
 * Opened once what goes there is in hand (a database read costs little): a
 * command that fails before leaves F as it was (an older baseline, a FIFO
 * nobody reads).
 */
static void open_output(const struct options *o, struct output *out)
{
	struct stat sb;
	bool exists;
	int fd;

	memset(out, 0, sizeof(*out));
	out->f = stdout;
	out->name = o->output ? o->output : "stdout";
	exists = o->output && !stat(o->output, &sb);
	if (exists && !S_ISREG(sb.st_mode)) {
		if (!(out->f = fopen(o->output, "w")))
			usage_error("cannot write %s: %s", o->output, strerror(errno));
	} else if (o->output) {
		out->path = exists ? realpath(o->output, NULL) : strdup(o->output);
		if (!out->path)
			usage_error("cannot write %s: %s", o->output, strerror(errno));
		if (asprintf(&out->tmp, "%s.XXXXXX", out->path) < 0)
			die("out of memory");
		fd = mkstemp(out->tmp);
		if (fd < 0) {
			free(out->tmp);
			out->tmp = NULL;
			usage_error("cannot write %s: %s", o->output, strerror(errno));
		}
		if (fchmod(fd, output_mode(&sb, exists)) || !(out->f = fdopen(fd, "w"))) {
			int err = errno;

			close(fd);
			output_failed(out, err);
		}
	}
	errno = 0;	/* what a failed write leaves here is why: ferror() does not say */
}

/* every byte written, or exit 1: a baseline cut short must not pass for one */
static void close_output(struct output *out)
{
	int err = 0;

	if (fflush(out->f) || ferror(out->f))
		err = errno ? errno : EIO;
	if (out->f != stdout && fclose(out->f) && !err)
		err = errno;
	if (!err && out->tmp && rename(out->tmp, out->path))
		err = errno;
	if (err)
		output_failed(out, err);
	free(out->tmp);
	free(out->path);
}

static int cmd_record(const struct options *o)
{
	struct gb_file run;
	char why[1024];
	struct store *s;
	long long id;
	char *shown, *sha, *kernel, *host;
	int err;

	if (gb_file_load(&run, o->arg, why, sizeof(why)))
		usage_error("%s", why);
	if (!run.count)
		usage_error("%s: no benchmarks to record", o->arg);
	s = open_db(o, true);
	err = history_record(s, &run, o->arg, o->name, o->gate, &id, why, sizeof(why));
	if (err) {
		store_close(s);		/* a file it made for nothing goes (store.h) */
		db_failed(err, why);
	}
	/* every string here is the result file's: escaped, and bounded as a table cell is */
	shown = escape_text(o->name ? o->name : "");
	sha = escape_elided(gb_knotif_str(&run, "git_sha"), TABLE_CELL_MAX);
	kernel = escape_elided(gb_knotif_str(&run, "kernel_release"), TABLE_CELL_MAX);
	host = escape_elided(gb_context_str(&run, "host_name"), TABLE_CELL_MAX);
	errno = 0;
	printf("recorded run #%lld%s%s%s: %zu benchmarks, git %s, kernel %s, host %s, in %s\n", id,
	       o->name ? " '" : "", shown, o->name ? "'" : "", run.count, sha, kernel, host, s->where);
	free(shown);
	free(sha);
	free(kernel);
	free(host);
	/* stored all the same: say so, but not that all went well */
	if (fflush(stdout) || ferror(stdout))
		die("run #%lld recorded, but writing stdout: %s", id, strerror(errno ? errno : EIO));
	gb_file_free(&run);
	store_close(s);
	return 0;
}

static const char *cell_or_dash(const struct store_rows *r, size_t row, size_t col)
{
	const char *v = store_cell(r, row, col);

	return v ? v : "-";
}

static int cmd_list(const struct options *o)
{
	static const char *const headers[] = {
		"id", "recorded (UTC)", "name", "git sha", "host", "machine class", "benchmarks", "reps", "gate",
	};
	static const char sql[] =
		"SELECT id, recorded_at, name, git_sha, host, machine_class,"
		" (SELECT count(DISTINCT benchmark) FROM results WHERE run_id = runs.id), repetitions, gate"
		" FROM runs ORDER BY id";
	struct store *s = open_db(o, false);
	struct table *t = table_new(9, headers, "rlllllrrl");
	struct output out;
	struct store_rows r;
	char why[1024];
	int err;

	if ((err = store_query(s, sql, 0, NULL, &r, why, sizeof(why))))
		db_failed(err, why);
	for (size_t i = 0; i < r.nrows; i++) {
		const char *cells[9];

		for (size_t c = 0; c < 9; c++)
			cells[c] = cell_or_dash(&r, i, c);
		table_add(t, cells);
	}
	store_rows_free(&r);
	open_output(o, &out);
	table_print(t, out.f);
	close_output(&out);
	table_free(t);
	store_close(s);
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

static void show_run(struct store *s, long long id)
{
	static const char *const headers[] = { "benchmark", "reps", "p50", "p99", "floor_ratio", "error" };
	static const char sql[] =
		"SELECT name, recorded_at, date, git_sha, kernel_release, kernel_version, host,"
		" cpu_model, num_cpus, syscall, samples_per_repetition, repetitions,"
		" placements, command_line, source, machine_class, gate FROM runs WHERE id = CAST($1 AS BIGINT)";
	char label[64], why[1024], idt[32];
	const char *params[1] = { idt };
	struct store_rows r;
	struct gb_file run;
	struct table *t;
	size_t errors = 0;
	double *v;
	int err;

	snprintf(idt, sizeof(idt), "%lld", id);
	if ((err = store_query(s, sql, 1, params, &r, why, sizeof(why))))
		db_failed(err, why);
	printf("run #%lld\n", id);
	for (size_t c = 0; r.nrows && c < r.ncols; c++) {
		static const char *const facts[] = {
			"name", "recorded_at", "date", "git_sha", "kernel_release", "kernel_version", "host",
			"cpu_model", "num_cpus", "syscall", "samples_per_repetition", "repetitions",
			"placements", "command_line", "source", "machine_class", "gate",
		};
		char *shown = escape_text(cell_or_dash(&r, 0, c));

		printf("  %-24s %s\n", facts[c], shown);
		free(shown);
	}
	store_rows_free(&r);
	snprintf(label, sizeof(label), "run #%lld", id);
	if ((err = history_document(s, id, label, &run, why, sizeof(why))))
		db_failed(err == -ENOENT ? -EINVAL : err, why);
	for (size_t i = 0; i < run.count; i++)
		errors += run.series[i].error != NULL;
	/* the error column only when a benchmark could not run */
	t = table_new(errors ? 6 : 5, headers, "lrrrrl");
	for (size_t i = 0; i < run.count; i++) {
		const struct gb_series *g = &run.series[i];
		char reps[16], p50[32], p99[32], fr[32];

		snprintf(reps, sizeof(reps), "%zu", g->reps);
		v = g->fig[GB_P50];
		fmt(p50, sizeof(p50), g->reps ? median_of(v, g->reps) : NAN, " µs", 1000);
		v = g->fig[GB_P99];
		fmt(p99, sizeof(p99), g->reps ? median_of(v, g->reps) : NAN, " µs", 1000);
		v = g->fig[GB_FLOOR_RATIO];
		fmt(fr, sizeof(fr), g->reps ? median_of(v, g->reps) : NAN, "", 1);
		table_add(t, (const char *const[]){ g->name, reps, p50, p99, fr, g->error ? g->error : "" });
	}
	table_print(t, stdout);
	table_free(t);
	gb_file_free(&run);
}

static int cmd_show(const struct options *o)
{
	struct store *s = open_db(o, false);
	struct output out;
	long long *ids;
	char why[1024];
	size_t n;
	int err;

	if ((err = history_select(s, o->selector, NULL, &ids, &n, why, sizeof(why))))
		db_failed(err, why);
	open_output(o, &out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		show_run(s, ids[i]);
	}
	close_output(&out);
	free(ids);
	store_close(s);
	return 0;
}

static int cmd_baseline(const struct options *o)
{
	struct store *s = open_db(o, false);
	struct output out;
	char why[1024];
	json_t *doc;
	size_t n;

	if (!(doc = history_baseline(s, o->selector, class_or_null(o), &n, why, sizeof(why))))
		usage_error("%s", why);
	open_output(o, &out);
	if (json_dumpf(doc, out.f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) || fputc('\n', out.f) == EOF)
		output_failed(&out, errno ? errno : EIO);
	close_output(&out);
	if (o->output)
		fprintf(stderr, "%s: baseline %s (%zu run%s) written to %s\n", knotif_prog, o->selector,
			n, n == 1 ? "" : "s", o->output);
	json_decref(doc);
	store_close(s);
	return 0;
}

/* when the run was measured (its result file's date), else when it was recorded */
static const char *measured(json_t *run)
{
	const char *date = json_string_value(json_object_get(run, "date"));

	return date ? date : json_string_value(json_object_get(run, "recorded_at"));
}

static void trend_table(json_t *trend, FILE *out)
{
	static const char *const headers[] = {
		"benchmark", "run", "git sha", "measured", "reps", "floor ratio", "p50", "gate",
	};
	json_t *cls, *bench, *run;
	size_t i, j, k;

	json_array_foreach(json_object_get(trend, "classes"), i, cls) {
		struct table *t = table_new(8, headers, "lrllrrrl");
		char *shown = escape_text(json_string_value(json_object_get(cls, "machine_class")));

		fprintf(out, "%s# %s\n", i ? "\n" : "", shown);
		free(shown);
		json_array_foreach(json_object_get(cls, "benchmarks"), j, bench)
			json_array_foreach(json_object_get(bench, "runs"), k, run) {
				const char *gate = json_string_value(json_object_get(run, "gate"));
				char id[32], reps[16], fr[32], p50[32];
				json_t *f = json_object_get(run, "floor_ratio"), *p = json_object_get(run, "p50_ns");

				snprintf(id, sizeof(id), "#%lld", (long long)json_integer_value(json_object_get(run, "id")));
				snprintf(reps, sizeof(reps), "%lld",
					 (long long)json_integer_value(json_object_get(run, "repetitions")));
				fmt(fr, sizeof(fr), json_is_number(f) ? json_number_value(f) : NAN, "", 1);
				fmt(p50, sizeof(p50), json_is_number(p) ? json_number_value(p) : NAN, " µs", 1000);
				table_add(t, (const char *const[]){
					k ? "" : json_string_value(json_object_get(bench, "name")), id,
					json_is_string(json_object_get(run, "git_sha")) ?
						json_string_value(json_object_get(run, "git_sha")) : "-",
					measured(run), reps, fr, p50,
					gate && !strcmp(gate, "fail") ? "FAILED" : gate ? gate : "" });
			}
		table_print(t, out);
		table_free(t);
	}
}

static int cmd_trend(const struct options *o)
{
	struct store *s = open_db(o, false);
	char why[1024];
	json_t *trend = history_trend(s, class_or_null(o), why, sizeof(why));
	struct output out;

	if (!trend)
		db_failed(-EIO, why);
	/* as baseline: a class the history does not hold is said, not an empty trend */
	if (o->class_given && !json_array_size(json_object_get(trend, "classes"))) {
		char *shown = escape_text(o->machine_class);

		usage_error("no run of class '%s' in the history", shown);
	}
	open_output(o, &out);
	if (o->format && !strcmp(o->format, "json")) {
		if (json_dumpf(trend, out.f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) || fputc('\n', out.f) == EOF)
			output_failed(&out, errno ? errno : EIO);
	} else {
		trend_table(trend, out.f);
	}
	close_output(&out);
	json_decref(trend);
	store_close(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;

	knotif_prog = "knotif-history";
	parse_args(&o, argc, argv);
	resolve_class(&o);
	switch (o.cmd) {
	case CMD_RECORD:
		return cmd_record(&o);
	case CMD_LIST:
		return cmd_list(&o);
	case CMD_SHOW:
		return cmd_show(&o);
	case CMD_BASELINE:
		return cmd_baseline(&o);
	case CMD_TREND:
		return cmd_trend(&o);
	case CMD_COUNT:
		break;
	}
	return 2;
}
