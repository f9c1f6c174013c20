// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-trace: where the time of a seccomp user notification round trip
 * goes, seen from the kernel. Follows every notification (and every
 * SECCOMP_RET_TRACE ptrace stop) through queued → received → replied →
 * resumed. The kernel side counts the transitions and fills per-phase
 * histograms, a copy per CPU; this side reads them on exit (and every
 * --interval) and prints counts, histograms and a phase table. A record per
 * notification is streamed only with --events.
 *
 * This file: the options and main, in libbpf-tools' shape (open, set the
 * knobs, load, attach, loop, report, one cleanup). The probe source is
 * source.c's, the traced tasks tasks.c's, the --events stream events.c's,
 * the reads of the kernel's aggregation snapshot.c's.
 *
 * Errors: bad usage is found before anything is set up, and ends the
 * program at once with one line and exit status 2 (usage_error). After
 * that, every step says its own failure in one line and returns -errno;
 * main goes to its one cleanup and turns that into the exit status:
 * -EOPNOTSUPP, a missing privilege or probe ("unsupported: ..."), is 3,
 * anything else 1.
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "check.h"
#include "cli.h"
#include "clock.h"
#include "events.h"
#include "knotif_git_sha.h"
#include "knotif_trace.h"
#include "knotif_trace.skel.h"
#include "snapshot.h"
#include "source.h"
#include "tasks.h"
#include "trace_report.h"

/* Exit statuses besides 0, 1 and EXIT_USAGE (2). */
enum { EXIT_UNSUPPORTED = 3 };	/* a missing privilege or probe: "unsupported: …" on stderr */

static struct options {
	int pid;
	char comm[KT_COMM_LEN];
	int source;			/* enum kt_source or SOURCE_AUTO */
	double duration_s;
	double interval_s;
	const char *events;
	enum event_format format;
	const char *summary;
	bool quiet, verbose;
	bool no_ptrace;			/* --kinds=unotif */
	unsigned int only_probes;	/* --only-probes: bits of enum sched_probe, 0 = all */
	bool prog_stats;		/* --prog-stats: each program's runs and run time */
	bool empty_programs;		/* --empty-programs: every probe returns at once */
	unsigned int task_slots;	/* --task-slots: the slot array's size, a power of two */
	int ready_fd;
	char **command;
} opt = { .source = SOURCE_AUTO, .ready_fd = -1, .task_slots = KT_TASK_SLOTS };

const char *argp_program_version = "knotif-trace " KNOTIF_VERSION " (" KNOTIF_GIT_SHA ")";

static const char doc[] =
"Follow seccomp user notifications (and SECCOMP_RET_TRACE ptrace stops) through\n"
"their states and show where each round trip's time goes.\n"
"\n"
"USAGE: knotif-trace [OPTION...] [-- COMMAND [ARG...]]\n"
"\n"
"Probe sources, chosen at run time (auto tries them in this order):\n"
"  done        seccomp:seccomp_notif_done of a patched kernel: the kernel's own\n"
"              moments, one event per notification (cheapest, every phase)\n"
"  tracepoint  seccomp:seccomp_notif_* transitions of a patched kernel: exact states\n"
"  fentry      fentry on __seccomp_filter + the sched reconstruction\n"
"  sched       stock tracepoints only (raw_syscalls, sched_switch, sched_waking)\n"
"\n"
"EXAMPLES:\n"
"  knotif-trace                      trace until Ctrl-C, summary on exit\n"
"  knotif-trace -c knotif-bench -- knotif-bench --benchmark_filter='^unotif/sync'\n"
"                                    trace one command's notifications\n"
"  knotif-trace -p 1234 -e ev.csv    one process, every notification to ev.csv\n"
"  knotif-trace -d 10 -j sum.json -q 10 seconds, summary as JSON, no histograms\n"
"  knotif-trace -i 1 -q               a phase table every second, of that second\n"
"\n"
"Exit status: 0 traced; 1 failure; 2 bad usage; 3 unsupported (missing\n"
"privilege or probe, said on stderr). With COMMAND: 1 also when COMMAND fails.\v"
"Phases: queue wait (queued -> received), think (received -> reply entered),\n"
"wake-to-resume (reply -> the target's syscall exit), round trip (their sum).\n"
"Phases are only reported for notifications whose every moment was seen;\n"
"interrupted ones, ENOSYS failures and missing stamps are counted instead.\n"
"Counts are exact. Phases are aggregated in the kernel, in histograms whose\n"
"slots are 1/64 of a power of two wide: a quantile is within 0.8% of the\n"
"sample's (exact below 64 ns); count, min, max and mean are exact.";

enum { OPT_READY_FD = 256, OPT_ONLY_PROBES, OPT_PROG_STATS, OPT_TASK_SLOTS, OPT_EMPTY_PROGRAMS };

static const struct argp_option options[] = {
	{ "pid", 'p', "PID", 0, "Only process PID and the processes it forks from now on", 0 },
	{ "comm", 'c', "COMM", 0, "Only tasks named COMM (e.g. knotif-bench)", 0 },
	{ "source", 's', "SRC", 0, "auto (default), done, tracepoint, fentry or sched", 0 },
	{ "duration", 'd', "SEC", 0, "Stop after SEC seconds", 0 },
	{ "interval", 'i', "SEC", 0, "Also print the counts and phases of every SEC seconds", 0 },
	{ "events", 'e', "FILE", 0, "Every notification to FILE ('-': stdout); costs a "
	  "ring-buffer record per notification", 0 },
	{ "format", 'f', "FMT", 0, "Format of --events: csv (default) or json (one object a "
	  "line)", 0 },
	{ "summary", 'j', "FILE", 0, "Transitions and phase statistics as JSON to FILE", 0 },
	{ "quiet", 'q', NULL, 0, "No histograms in the summary on exit", 0 },
	{ "kinds", 'k', "LIST", 0, "unotif,ptrace (default) or unotif: with the done or tracepoint "
	  "source, unotif alone loads no syscall or scheduler probe (far cheaper)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf's own messages", 0 },
	{ "ready-fd", OPT_READY_FD, "FD", 0, "Write \"ready\" to FD once attached, then close "
	  "it", 0 },
	{ "only-probes", OPT_ONLY_PROBES, "LIST", 0, "Measuring aid: attach only these of "
	  "sys_exit, sched_switch, sched_waking (counts are then incomplete)", 0 },
	{ "prog-stats", OPT_PROG_STATS, NULL, 0, "Measuring aid: at the end, each program's runs "
	  "and mean run time on stderr (kernel BPF run-time stats, on while tracing; they add "
	  "their own cost)", 0 },
	{ "empty-programs", OPT_EMPTY_PROGRAMS, NULL, 0, "Measuring aid: every probe is attached "
	  "but returns at once (nothing is counted): the cost left is the probes' dispatch", 0 },
	{ "task-slots", OPT_TASK_SLOTS, "N", 0, "Testing aid: the slot array holding task state "
	  "has N slots (a power of two, default 8192); with 1 nearly every task's state goes to "
	  "task storage", 0 },
	{ 0 },
};

/* --only-probes: a comma-separated list of sched_probe_key names, as a mask */
static unsigned int parse_only_probes(const char *arg)
{
	bool on[SCHED_PROBE_COUNT];
	unsigned int mask = 0;

	cli_choices("--only-probes", arg, sched_probe_key, SCHED_PROBE_COUNT, on,
		    "a list of sys_exit, sched_switch, sched_waking");
	for (unsigned int i = 0; i < SCHED_PROBE_COUNT; i++)
		mask |= on[i] ? 1U << i : 0;
	return mask;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'p':
		opt.pid = (int)cli_int("--pid", arg, 1, INT_MAX);
		break;
	case 'c':
		if (strlen(arg) >= KT_COMM_LEN)
			usage_error("invalid value for --comm: '%s' (a comm has at most %d "
				    "characters)", arg, KT_COMM_LEN - 1);
		strcpy(opt.comm, arg);
		break;
	case 's':
		opt.source = SOURCE_AUTO;
		if (strcmp(arg, "auto")) {
			for (opt.source = 0; opt.source < KT_SRC_COUNT; opt.source++)
				if (!strcmp(arg, source_key[opt.source]))
					break;
			if (opt.source == KT_SRC_COUNT)
				usage_error("invalid value for --source: '%s' (expected auto, "
					    "done, tracepoint, fentry or sched)", arg);
		}
		break;
	case 'd':
		opt.duration_s = cli_seconds("--duration", arg, 0.001, 86400 * 365);
		break;
	case 'i':
		opt.interval_s = cli_seconds("--interval", arg, 0.01, 86400);
		break;
	case 'e':
		opt.events = arg;
		break;
	case 'f':
		if (!strcmp(arg, "csv"))
			opt.format = EVENTS_CSV;
		else if (!strcmp(arg, "json"))
			opt.format = EVENTS_JSON;
		else
			usage_error("invalid value for --format: '%s' (expected csv or json)", arg);
		break;
	case 'j':
		opt.summary = arg;
		break;
	case 'q':
		opt.quiet = true;
		break;
	case 'v':
		opt.verbose = true;
		break;
	case 'k':
		if (!strcmp(arg, "unotif"))
			opt.no_ptrace = true;
		else if (strcmp(arg, "unotif,ptrace") && strcmp(arg, "ptrace,unotif"))
			usage_error("invalid value for --kinds: '%s' (expected unotif,ptrace or "
				    "unotif)", arg);
		break;
	case OPT_ONLY_PROBES:
		opt.only_probes |= parse_only_probes(arg);
		break;
	case OPT_PROG_STATS:
		opt.prog_stats = true;
		break;
	case OPT_EMPTY_PROGRAMS:
		opt.empty_programs = true;
		break;
	case OPT_TASK_SLOTS:
		opt.task_slots = (unsigned int)cli_int("--task-slots", arg, 1, 1 << 22);
		if (opt.task_slots & (opt.task_slots - 1))
			usage_error("invalid value for --task-slots: '%s' (not a power of two)",
				    arg);
		break;
	case OPT_READY_FD:
		opt.ready_fd = (int)cli_int("--ready-fd", arg, 0, INT_MAX);
		if (fcntl(opt.ready_fd, F_GETFL) < 0)
			usage_error("invalid value for --ready-fd: '%s' (not an open descriptor)",
				    arg);
		if ((fcntl(opt.ready_fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
			usage_error("invalid value for --ready-fd: '%s' (open for reading only)",
				    arg);
		break;
	case ARGP_KEY_ARG:
		opt.command = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * getopt, inside argp_parse(), says what is wrong with an option (unknown,
 * ambiguous, missing its value, given one it takes none) on stderr, in its
 * own words prefixed with argv[0] as typed; argp adds a "Try ..." line and
 * exits. Every knotif tool says one line, "knotif-trace: WHAT (see
 * --help)", and neither can be told to say it so: their one alternative,
 * ARGP_NO_ERRS, silences getopt and leaves WHAT to be worked out again from
 * argv. So while argp parses, stderr is a memory stream, and end_capture()
 * (at exit, if the parse ends the program) says its first line as ours.
 */
static FILE *real_stderr;	/* while argp parses; else NULL */
static char *parse_said;
static size_t parse_said_len;

static void end_capture(void)
{
	size_t prog_len = strlen(knotif_prog);
	char *line, *what;

	if (!real_stderr)
		return;
	fclose(stderr);
	stderr = real_stderr;
	real_stderr = NULL;
	line = parse_said ? strtok(parse_said, "\n") : NULL;
	if (!line)
		return;	/* --help, --usage, --version, or a parse that went through */
	if (!strncmp(line, knotif_prog, prog_len) && line[prog_len] == ':') {
		fprintf(stderr, "%s\n", line);	/* a usage_error of ours: already one line */
		return;
	}
	what = strstr(line, ": ");
	fprintf(stderr, "%s: %s%s\n", knotif_prog, what ? what + 2 : line,
		strstr(line, "--help") ? "" : " (see --help)");
}

static void parse_options(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, NULL, doc, NULL, NULL, NULL };
	FILE *capture = open_memstream(&parse_said, &parse_said_len);
	error_t err;

	argp_err_exit_status = EXIT_USAGE;	/* argp's own usage errors exit 2 too */
	if (capture) {
		real_stderr = stderr;
		stderr = capture;
		atexit(end_capture);
	}
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	end_capture();	/* argp returns only when it said nothing */
	free(parse_said);
	if (err)
		usage_error("bad arguments (see --help)");
}

/* libbpf's messages only with -v: our own say what failed, in one line */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return opt.verbose ? vfprintf(stderr, fmt, args) : 0;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* Opened before anything is traced: an output path that cannot be written is bad usage. */
static void open_outputs(struct report *rep, FILE **summary_file, FILE **out)
{
	if (opt.summary && !(*summary_file = fopen(opt.summary, "w")))
		usage_error("cannot write --summary=%s: %s", opt.summary, strerror(errno));
	if (opt.events) {
		rep->stream = strcmp(opt.events, "-") ? fopen(opt.events, "w") : stdout;
		if (!rep->stream)
			usage_error("cannot write --events=%s: %s", opt.events, strerror(errno));
		if (rep->stream == stdout)
			*out = stderr;	/* the stream owns stdout; the summary goes aside */
		rep->format = opt.format;
	}
}

/* Between open and load: the programs' constants, the maps' sizes, which programs load. */
static void set_knobs(struct knotif_trace_bpf *skel, int source)
{
	struct probe_options po = {
		.follow_forks = opt.pid || opt.command,
		.ptrace = !opt.no_ptrace,
		.only_probes = opt.only_probes,
		.empty_programs = opt.empty_programs,
	};

	skel->rodata->use_tree = opt.pid || opt.command;
	memcpy((char *)skel->rodata->targ_comm, opt.comm, KT_COMM_LEN);
	skel->rodata->have_filter = opt.pid || opt.command || opt.comm[0];
	skel->rodata->want_ptrace = !opt.no_ptrace;
	skel->rodata->want_events = opt.events != NULL;
	skel->rodata->slot_mask = opt.task_slots - 1;
	bpf_map__set_max_entries(skel->maps.slots, opt.task_slots);
	if (libbpf_num_possible_cpus() > 0)	/* else snapshot_read() returns why */
		bpf_map__set_max_entries(skel->maps.hists,
					 (__u32)libbpf_num_possible_cpus() * KT_KIND_COUNT);
	if (!opt.events)	/* never written: the smallest ring there is */
		bpf_map__set_max_entries(skel->maps.events, (__u32)sysconf(_SC_PAGESIZE));
	source_set_autoload(skel, source, &po);
}

/* The first lines: the source used, why each other one is out, what limits the counts. */
static void print_header(FILE *out, int source, const struct source_support *support)
{
	fprintf(out, "# knotif-trace %s: source %s (%s)\n", KNOTIF_VERSION, source_key[source],
		source_detail[source]);
	for (int s = 0; s < KT_SRC_COUNT; s++)
		if (!support->ok[s])
			fprintf(out, "# %s: unsupported: %s\n", source_key[s], support->why[s]);
	if (opt.only_probes)
		fprintf(out, "# measuring: only some probes attached (--only-probes): counts and "
			"phases are incomplete\n");
	if (opt.empty_programs)
		fprintf(out, "# measuring: every probe returns at once (--empty-programs): nothing "
			"is counted\n");
	if (opt.pid || opt.command || opt.comm[0])
		fprintf(out, "# filter:%s%.0d%s%s%s\n", opt.pid ? " pid " : "", opt.pid,
			opt.command ? " COMMAND and its children" : "", opt.comm[0] ? " comm " : "",
			opt.comm);
	fflush(out);
}

/* --ready-fd: whoever waits for the tracer (knotif-bench --trace) may go on */
static void say_ready(void)
{
	if (opt.ready_fd < 0)
		return;
	if (write(opt.ready_fd, "ready\n", 6) != 6)
		fprintf(stderr, "%s: writing to --ready-fd: %s\n", knotif_prog, strerror(errno));
	close(opt.ready_fd);
}

static void print_warnings(FILE *out, const struct trace_snapshot *s)
{
	if (s->c.events_dropped || s->c.state_unavailable)
		fprintf(out, "# WARNING: %llu events dropped (ring buffer full), %llu tasks not "
			"followed (no task storage): counts above are incomplete\n",
			s->c.events_dropped, s->c.state_unavailable);
}

/* The reads of the kernel's aggregation: the latest, the one before it, their difference. */
struct snapshots {
	struct trace_snapshot now, prev, delta;
};

/*
 * One block: what happened since the previous read, labelled with the time
 * that really passed (*since_ns: when that read was). A tracer stopped or
 * starved past its ticks prints one block for the whole gap, never one
 * per missed tick.
 */
static void print_interval(const struct knotif_trace_bpf *skel, FILE *out, struct snapshots *s,
			   int64_t *since_ns)
{
	int64_t read_ns = now_ns();
	struct timespec ts;
	struct tm tm;
	char when[32];
	int err;

	err = snapshot_read(skel, &s->now);
	if (err) {
		fprintf(stderr, "%s: reading the maps: %s\n", knotif_prog, strerror(-err));
		return;
	}
	snapshot_delta(&s->delta, &s->now, &s->prev);
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fprintf(out, "\n# %s, the last %.3f s:\n", when, (double)(read_ns - *since_ns) / 1e9);
	*since_ns = read_ns;
	report_print(&s->delta, out, !opt.quiet);
	print_warnings(out, &s->delta);
	fflush(out);
	s->prev = s->now;
}

/*
 * Until a signal, --duration or COMMAND's end. Without --events nothing
 * needs reading until the end (or the next interval): the loop only
 * watches COMMAND, the clock and signals.
 */
static int trace_loop(const struct knotif_trace_bpf *skel, struct event_sink *sink,
		      struct traced_tasks *tasks, struct snapshots *snaps, FILE *out)
{
	const struct timespec nap = { 0, 50 * 1000 * 1000 };
	int64_t interval_ns = (int64_t)(opt.interval_s * 1e9), interval_from = now_ns();
	int64_t deadline = opt.duration_s > 0 ? now_ns() + (int64_t)(opt.duration_s * 1e9) : 0;
	int64_t next_interval = interval_ns > 0 ? interval_from + interval_ns : 0;
	int err;

	while (!stop) {
		if (sink->rb)
			err = event_sink_poll(sink, 50);
		else
			err = nanosleep(&nap, NULL) ? -errno : 0;
		if (err == -EINTR)
			continue;
		if (err) {
			fprintf(stderr, "%s: reading events: %s\n", knotif_prog, strerror(-err));
			return err;
		}
		if (tasks_command_ended(tasks))
			break;
		if (next_interval && now_ns() >= next_interval) {
			print_interval(skel, out, snaps, &interval_from);
			next_interval += interval_ns;
			/* ticks missed: the next from now */
			if (next_interval <= interval_from)
				next_interval = interval_from + interval_ns;
		}
		if (deadline && now_ns() >= deadline)
			break;
	}
	return 0;
}

static json_t *summary_json(const struct options *o, int source,
			    const struct source_support *support, const struct trace_snapshot *snap)
{
	json_t *unsup = json_object(), *filter = json_object(), *s;
	struct utsname uts;

	uname(&uts);
	for (int i = 0; i < KT_SRC_COUNT; i++)
		if (!support->ok[i])
			json_object_set_new(unsup, source_key[i],
					    json_sprintf("unsupported: %s", support->why[i]));
	if (o->pid)
		json_object_set_new(filter, "pid", json_integer(o->pid));
	if (o->command)
		json_object_set_new(filter, "command", json_string(o->command[0]));
	if (o->comm[0])
		json_object_set_new(filter, "comm", json_string(o->comm));
	s = json_pack("{s:i,s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:I,s:I,s:o}",
		      "schema_version", 2, "tool", "knotif-trace", "version", KNOTIF_VERSION,
		      "git_sha", KNOTIF_GIT_SHA, "kernel_release", uts.release,
		      "source", source_key[source], "unsupported_sources", unsup, "filter", filter,
		      "events_dropped", (json_int_t)snap->c.events_dropped,
		      "state_unavailable", (json_int_t)snap->c.state_unavailable,
		      "kinds", report_json(snap));
	json_object_set_new(s, "source_detail", json_string(source_detail[source]));
	json_object_set_new(s, "histogram", json_pack("{s:s,s:i,s:f,s:s}",
		"slots", "HDR-style: one per ns below 2^6 ns, then 64 linear slots per power of "
			 "two",
		"sub_buckets", KT_SUB, "max_relative_error", 1.0 / (2 * KT_SUB),
		"quantiles", "numpy type 7 over slot midpoints clamped to [min, max]; "
			     "count, min, max, mean exact; stddev from midpoints"));
	return s;
}

/* The end: the whole run's counts and phases, the programs' costs, the --summary file. */
static int report_run(const struct knotif_trace_bpf *skel, int source,
		      const struct source_support *support, struct trace_snapshot *snap,
		      FILE *out, FILE *summary_file)
{
	int err = snapshot_read(skel, snap);
	json_t *summary;

	if (err) {
		fprintf(stderr, "%s: reading the maps: %s\n", knotif_prog, strerror(-err));
		return err;
	}
	if (opt.interval_s > 0)
		fprintf(out, "\n# the whole run:\n");
	report_print(snap, out, !opt.quiet);
	print_warnings(out, snap);
	if (opt.prog_stats)
		prog_stats_print(skel, stderr);
	if (!opt.summary)
		return 0;
	summary = summary_json(&opt, source, support, snap);
	if (json_dumpf(summary, summary_file, JSON_INDENT(2) | JSON_SORT_KEYS) ||
	    fputc('\n', summary_file) == EOF) {
		fprintf(stderr, "%s: cannot write %s\n", knotif_prog, opt.summary);
		err = -EIO;
	}
	json_decref(summary);
	return err;
}

int main(int argc, char **argv)
{
	static struct event_sink sink;	/* 400 KiB of held records: not on the stack */
	struct knotif_trace_bpf *skel = NULL;
	struct source_support support = { 0 };
	struct snapshots *snaps = NULL;
	struct traced_tasks tasks;
	struct report rep = { 0 };
	FILE *out = stdout, *summary_file = NULL;
	int source, stats_fd = -1, err;

	knotif_prog = "knotif-trace";
	parse_options(argc, argv);
	if (opt.pid && kill(opt.pid, 0) && errno == ESRCH)
		usage_error("invalid value for --pid: '%d' (no such process)", opt.pid);
	libbpf_set_print(libbpf_print);
	open_outputs(&rep, &summary_file, &out);
	tasks = (struct traced_tasks){ .pid = opt.pid, .command = opt.command,
				       .slot_mask = opt.task_slots - 1, .go_fd = -1,
				       .exec_err_fd = -1 };

	source = source_choose(opt.source, &support);
	if (source < 0) {
		err = source;
		goto cleanup;
	}
	snaps = calloc(1, sizeof(*snaps));
	if (!snaps) {
		err = -ENOMEM;
		fprintf(stderr, "%s: out of memory\n", knotif_prog);
		goto cleanup;
	}
	skel = knotif_trace_bpf__open();
	if (!skel) {
		err = -errno;
		fprintf(stderr, "%s: opening the BPF object: %s\n", knotif_prog, strerror(-err));
		goto cleanup;
	}
	set_knobs(skel, source);
	err = source_load(skel, source);
	if (err)
		goto cleanup;
	/* the traced tree's first tasks take their slots while no program can */
	err = tasks_select(&tasks, skel);
	if (err)
		goto cleanup;
	if (opt.prog_stats) {
		stats_fd = prog_stats_enable();
		if (stats_fd < 0) {
			err = stats_fd;
			goto cleanup;
		}
	}
	err = source_attach(skel, source);
	if (err)
		goto cleanup;
	err = tasks_select_attached(&tasks, skel);
	if (err)
		goto cleanup;
	if (opt.events) {
		err = event_sink_open(&sink, &rep, skel);
		if (err)
			goto cleanup;
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	print_header(out, source, &support);
	say_ready();
	err = tasks_start(&tasks);
	if (err)
		goto cleanup;
	if (!opt.command && isatty(STDERR_FILENO))
		fprintf(stderr, "Tracing seccomp notifications... Hit Ctrl-C to end.\n");

	err = trace_loop(skel, &sink, &tasks, snaps, out);
	if (err)
		goto cleanup;
	event_sink_drain(&sink);
	err = report_run(skel, source, &support, &snaps->now, out, summary_file);

cleanup:
	tasks_end(&tasks);
	if (summary_file && fclose(summary_file)) {
		err = -errno;
		fprintf(stderr, "%s: writing %s: %s\n", knotif_prog, opt.summary, strerror(-err));
	}
	if (rep.stream && rep.stream != stdout && fclose(rep.stream)) {
		err = -errno;
		fprintf(stderr, "%s: writing %s: %s\n", knotif_prog, opt.events, strerror(-err));
	}
	event_sink_free(&sink);
	knotif_trace_bpf__destroy(skel);
	source_close();
	if (stats_fd >= 0)
		close(stats_fd);
	free(snaps);
	if (err == -EOPNOTSUPP)
		return EXIT_UNSUPPORTED;
	return err || tasks.command_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
