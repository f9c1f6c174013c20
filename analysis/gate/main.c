// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-compare: the regression gate. Compares two knotif-bench (Google
 * Benchmark schema) result files benchmark by benchmark and exits 0 (pass),
 * 1 (a regression) or 2 (input it cannot judge).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
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
#include "junit.h"
#include "output.h"
#include "stream.h"
#include "table.h"
#include "verdict.h"

/* OPT_*, cli_tool_options[] and cli_tool_spec (--help), from compare_options.def */
#define CLI_OPTIONS_DEF "compare_options.def"
#include "cli_options_def.h"

struct options {
	struct gate_options gate;
	bool threshold_given, metric_given;
	regex_t report_only;
	enum out_format format;
	const char *junit_path;		/* --junit */
	FILE *junit;			/* opened (not truncated) while parsing: a bad path is exit 2 */
	const char *base, *new;
	const char *history, *db;	/* --history: BASE from the database */
	char base_label[600];
};

static double parse_fraction(const char *flag, const char *s, bool percent_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (percent_ok && end != s && *end == '%') {
		v /= 100;
		end++;
	}
	if (errno || end == s || *end || !(v > 0) || !isfinite(v))
		usage_error("invalid value for %s: '%s' (expected a positive number%s)", flag, s,
			    percent_ok ? ", e.g. 0.5 or 50%" : "");
	return v;
}

static void parse_args(struct options *o, int argc, char **argv)
{
	int c;

	*o = (struct options){
		.gate = { .metric = GB_FLOOR_RATIO, .threshold = 0.5, .alpha = 0.05,
			  .confirm = GB_FIGURE_COUNT },
	};
	while ((c = cli_next_option(&cli_tool_spec, argc, argv)) != -1) {
		switch (c) {
		case OPT_METRIC:
			if (gb_figure_parse(optarg, &o->gate.metric))
				usage_error("invalid value for --metric: '%s' (expected floor_ratio, real_time, cpu_time, p50 or p99)",
					    optarg);
			o->metric_given = true;
			break;
		case OPT_THRESHOLD:
			o->gate.threshold = parse_fraction("--threshold", optarg, true);
			o->threshold_given = true;
			break;
		case OPT_ALPHA:
			o->gate.alpha = parse_fraction("--alpha", optarg, false);
			if (o->gate.alpha >= 1)
				usage_error("invalid value for --alpha: '%s' (expected 0 < alpha < 1)", optarg);
			break;
		case OPT_DETERMINISTIC:
			o->gate.deterministic = true;
			break;
		case OPT_FORMAT:
			o->format = cli_format("--format", optarg);
			if (o->format == FORMAT_CSV || o->format == FORMAT_BMF)
				usage_error("invalid value for --format: '%s' (expected console or json: a verdict is not a table of rows)",
					    optarg);
			break;
		case OPT_REPORT_ONLY:
			if (regcomp(&o->report_only, optarg, REG_EXTENDED | REG_NOSUB))
				usage_error("invalid value for --report-only: '%s' (expected an extended regex)", optarg);
			o->gate.report_only = &o->report_only;
			break;
		case OPT_CONFIRM:
			if (gb_figure_parse(optarg, &o->gate.confirm))
				usage_error("invalid value for --confirm: '%s' (expected floor_ratio, real_time, cpu_time, p50 or p99)",
					    optarg);
			break;
		case OPT_FLOOR:
			if (!strcmp(optarg, "auto"))
				o->gate.floor = FLOOR_AUTO;
			else if (!strcmp(optarg, "gate"))
				o->gate.floor = FLOOR_GATE;
			else if (!strcmp(optarg, "report"))
				o->gate.floor = FLOOR_REPORT;
			else
				usage_error("invalid value for --floor: '%s' (expected auto, gate or report)", optarg);
			break;
		case OPT_HISTORY:
			o->history = optarg;
			break;
		case OPT_DB:
			o->db = optarg;
			break;
		case OPT_JUNIT:
			o->junit_path = optarg;
			break;
		}
	}
	if (o->db && !o->history)
		usage_error("--db belongs to --history (see --help)");
	if (o->history) {
		if (argc - optind != 1)
			usage_error("expected NEW.json after --history, got %d file arguments (see --help)",
				    argc - optind);
		o->new = argv[optind];
	} else {
		if (argc - optind != 2)
			usage_error("expected BASE.json NEW.json, got %d file argument%s (see --help)",
				    argc - optind, argc - optind == 1 ? "" : "s");
		o->base = argv[optind];
		o->new = argv[optind + 1];
	}
	if (o->junit_path) {
		/* no O_TRUNC: an earlier report survives a comparison that fails before its verdicts */
		int fd = open(o->junit_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

		if (fd < 0 || !(o->junit = fdopen(fd, "w")))
			usage_error("cannot write --junit=%s: %s", o->junit_path, strerror(errno));
	}
	if (o->gate.deterministic) {
		/* instruction-counted runs repeat exactly: any drift is the code */
		if (!o->threshold_given)
			o->gate.threshold = 0.01;
		if (!o->metric_given)
			o->gate.metric = GB_P50;
	}
}

static void load(struct gb_file *f, const char *path)
{
	char why[512];

	if (gb_file_stream(f, path, why, sizeof(why)))
		usage_error("%s", why);
}

/* --history: the baseline of NEW's machine class, pooled from the database */
static void load_history(struct gb_file *f, struct options *o, const struct gb_file *new)
{
	const char *env = getenv("KNOTIF_DB");
	char why[1024], path[4096], cls[512];
	struct store *s;
	json_t *doc;
	size_t n;

	if (!o->db && env && *env)
		o->db = env;
	if (!o->db) {
		if (history_default_path(path, sizeof(path)))
			usage_error("--history: no --db given and neither KNOTIF_DB, XDG_DATA_HOME nor HOME is set");
		o->db = path;
	}
	history_machine_class(new, cls, sizeof(cls));
	if (history_open(&s, o->db, false, why, sizeof(why)))
		usage_error("%s", why);
	if (!(doc = history_baseline(s, o->history, cls, &n, why, sizeof(why))))
		usage_error("%s", why);
	store_close(s);
	snprintf(o->base_label, sizeof(o->base_label), "history %s (%zu run%s of %s)", o->history, n,
		 n == 1 ? "" : "s", cls);
	o->base = o->base_label;
	if (gb_file_from_json(f, doc, o->base, why, sizeof(why)))
		usage_error("%s", why);
}

/*
 * floor_ratio cancels a uniformly faster or slower machine, not a change in
 * what a wake-up costs (load, another VM host): methods with work beyond
 * the wake-ups then shift against the floor. Say so when the floor moved.
 */
static void warn_floor_moved(const struct gb_file *b, const struct gb_file *n)
{
	json_t *fb = json_object_get(json_object_get(b->context, "knotif"), "floor");
	json_t *fn = json_object_get(json_object_get(n->context, "knotif"), "floor"), *v;
	const char *placement;

	json_object_foreach(fb, placement, v) {
		double pb = json_number_value(json_object_get(v, "p50"));
		double pn = json_number_value(json_object_get(json_object_get(fn, placement), "p50"));

		if (pb > 0 && pn > 0 && (pn / pb > 1.5 || pb / pn > 1.5)) {
			char *shown = escape_elided(placement, TABLE_CELL_MAX);

			fprintf(stderr, "%s: warning: the floor at placement:%s moved %.2fx (%.3f -> %.3f us): the runs saw different conditions, and floor_ratio of methods with work beyond the wake-ups shifts with it (see --confirm)\n",
				knotif_prog, shown, pn / pb, pb / 1000, pn / 1000);
			free(shown);
		}
	}
}

/* "(BASE's, NEW's)" of a fact from the files: escaped and bounded as the table's cells are */
static void print_pair(const char *b, const char *n)
{
	char *sb = escape_elided(b, TABLE_CELL_MAX), *sn = escape_elided(n, TABLE_CELL_MAX);

	fprintf(stderr, "(%s, %s)", sb, sn);
	free(sb);
	free(sn);
}

/* Facts that make two runs measure different things; said, not failed. */
static void warn_config(const struct gb_file *b, const struct gb_file *n, const struct options *o,
			const struct gate_result *r)
{
	if (r->few_reps && !o->gate.deterministic)
		fprintf(stderr, "%s: warning: %zu benchmark%s compared with fewer than %d repetitions: the U test is unreliable; %d+ recommended\n",
			knotif_prog, r->few_reps, r->few_reps == 1 ? "" : "s",
			GATE_OPTIMAL_REPETITIONS, GATE_OPTIMAL_REPETITIONS);
	if (!r->same_host && o->gate.metric != GB_FLOOR_RATIO && !o->gate.deterministic) {
		fprintf(stderr, "%s: warning: BASE and NEW come from different hosts ", knotif_prog);
		print_pair(gb_context_str(b, "host_name"), gb_context_str(n, "host_name"));
		fprintf(stderr, ": absolute %s compares machines, not code; --metric=floor_ratio cancels machine speed\n",
			gb_figure_key(o->gate.metric));
	}
	warn_floor_moved(b, n);
	if (strcmp(gb_knotif_str(b, "syscall"), gb_knotif_str(n, "syscall"))) {
		fprintf(stderr, "%s: warning: BASE and NEW trap different syscalls ", knotif_prog);
		print_pair(gb_knotif_str(b, "syscall"), gb_knotif_str(n, "syscall"));
		fputc('\n', stderr);
	}
}

int main(int argc, char **argv)
{
	struct gb_file base, new;
	struct gate_result r;
	struct options o;
	size_t common = 0, regressions, gated;
	int err = 0;

	knotif_prog = "knotif-compare";
	parse_args(&o, argc, argv);
	load(&new, o.new);
	if (o.history)
		load_history(&base, &o, &new);
	else
		load(&base, o.base);
	for (size_t i = 0; i < base.count; i++)
		common += gb_file_find(&new, base.series[i].name) != NULL;
	if (!common)
		usage_error("no benchmarks in common between %s (%zu) and %s (%zu)", o.base,
			    base.count, o.new, new.count);
	check_ret(gate_compare(&base, &new, &o.gate, &r), "comparing");
	warn_config(&base, &new, &o, &r);
	errno = 0;
	if (o.format == FORMAT_JSON)
		err = gate_print_json(stdout, &base, &new, &o.gate, &r);
	else
		gate_print_console(stdout, &base, &new, &o.gate, &r);
	/* a verdict nobody could read is no pass: a full disk, a closed pipe */
	if (fflush(stdout) || ferror(stdout) || err)
		die("writing the comparison: %s", strerror(errno ? errno : EIO));
	if (o.junit) {
		struct stat st;

		errno = 0;
		if ((!fstat(fileno(o.junit), &st) && S_ISREG(st.st_mode) && ftruncate(fileno(o.junit), 0)) ||
		    gate_print_junit(o.junit, &base, &new, &o.gate, &r) || fclose(o.junit))
			die("writing --junit=%s: %s", o.junit_path, strerror(errno ? errno : EIO));
	}
	regressions = r.regressions;
	gated = r.gated;
	gate_result_free(&r);
	gb_file_free(&base);
	gb_file_free(&new);
	if (o.gate.report_only)
		regfree(&o.report_only);
	if (!regressions && !gated)
		usage_error("nothing to gate: %zu common benchmark%s, none comparable (errors, report-only or too few repetitions; see above)",
			    common, common == 1 ? "" : "s");
	return regressions ? 1 : 0;
}
