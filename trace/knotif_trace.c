// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-trace: where the time of a seccomp user notification round trip
 * goes, seen from the kernel. Follows every notification (and every
 * SECCOMP_RET_TRACE ptrace stop) through queued → received → replied →
 * resumed. The kernel side counts the transitions and fills per-phase
 * histograms, a copy per CPU; this side reads them on exit (and every
 * --interval) and prints counts, histograms and a phase table. A record per
 * notification is streamed only with --events.
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
#include <dirent.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "check.h"
#include "cli.h"
#include "clock.h"
#include "hist.h"
#include "knotif_git_sha.h"
#include "knotif_trace.h"
#include "knotif_trace.skel.h"
#include "pdeath.h"
#include "trace_report.h"

/* Exit statuses besides 0, 1 and EXIT_USAGE (2). */
enum { EXIT_UNSUPPORTED = 3 };	/* a missing privilege or probe: "unsupported: …" on stderr */

enum source_choice { CHOOSE_AUTO = -1 };

static struct options {
	int pid;
	char comm[KT_COMM_LEN];
	int source;			/* enum kt_source or CHOOSE_AUTO */
	double duration_s;
	double interval_s;
	const char *events;
	enum event_format format;
	const char *summary;
	bool quiet, verbose;
	bool no_ptrace;			/* --kinds=unotif */
	unsigned int only_probes;	/* --only-probes: a mask of sched_probe, 0 = all */
	bool prog_stats;		/* --prog-stats: each program's runs and run time */
	bool empty_programs;		/* --empty-programs: every probe returns at once */
	unsigned int task_slots;	/* --task-slots: the slot array's size, a power of two */
	int ready_fd;
	char **command;
} opt = { .source = CHOOSE_AUTO, .ready_fd = -1, .task_slots = KT_TASK_SLOTS };

static const char *const source_key[KT_SRC_COUNT] = {
	[KT_SRC_TRACEPOINT] = "tracepoint",
	[KT_SRC_FENTRY] = "fentry",
	[KT_SRC_SCHED] = "sched",
};

static const char *const source_detail[KT_SRC_COUNT] = {
	[KT_SRC_TRACEPOINT] = "seccomp:seccomp_notif_* tracepoints: exact states",
	[KT_SRC_FENTRY] = "fentry on __seccomp_filter (exact queue moment) + ioctl/sched tracepoints",
	[KT_SRC_SCHED] = "reconstructed from raw_syscalls:sys_exit, sched_switch and sched_waking: "
			 "queued = the target's first wake-up or sleep in the call",
};

const char *argp_program_version = "knotif-trace " KNOTIF_VERSION " (" KNOTIF_GIT_SHA ")";

static const char doc[] =
"Follow seccomp user notifications (and SECCOMP_RET_TRACE ptrace stops) through\n"
"their states and show where each round trip's time goes.\n"
"\n"
"USAGE: knotif-trace [OPTION...] [-- COMMAND [ARG...]]\n"
"\n"
"Probe sources, chosen at run time (auto tries them in this order):\n"
"  tracepoint  seccomp:seccomp_notif_* of a patched kernel: exact states\n"
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

/* The stock-kernel probes, each of which can be attached alone to measure its cost. */
static const char *const sched_probe[] = { "sys_exit", "sched_switch", "sched_waking" };
#define N_SCHED_PROBES (sizeof(sched_probe) / sizeof(sched_probe[0]))

static const struct argp_option options[] = {
	{ "pid", 'p', "PID", 0, "Only process PID and the processes it forks from now on", 0 },
	{ "comm", 'c', "COMM", 0, "Only tasks named COMM (e.g. knotif-bench)", 0 },
	{ "source", 's', "SRC", 0, "auto (default), tracepoint, fentry or sched", 0 },
	{ "duration", 'd', "SEC", 0, "Stop after SEC seconds", 0 },
	{ "interval", 'i', "SEC", 0, "Also print the counts and phases of every SEC seconds", 0 },
	{ "events", 'e', "FILE", 0, "Every notification to FILE ('-': stdout); costs a "
	  "ring-buffer record per notification", 0 },
	{ "format", 'f', "FMT", 0, "Format of --events: csv (default) or json (one object a line)", 0 },
	{ "summary", 'j', "FILE", 0, "Transitions and phase statistics as JSON to FILE", 0 },
	{ "quiet", 'q', NULL, 0, "No histograms in the summary on exit", 0 },
	{ "kinds", 'k', "LIST", 0, "unotif,ptrace (default) or unotif: with the tracepoint source, "
	  "unotif alone loads no syscall or scheduler probe (far cheaper)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf's own messages", 0 },
	{ "ready-fd", OPT_READY_FD, "FD", 0, "Write \"ready\" to FD once attached, then close it", 0 },
	{ "only-probes", OPT_ONLY_PROBES, "LIST", 0, "Measuring aid: attach only these of sys_exit, "
	  "sched_switch, sched_waking (counts are then incomplete)", 0 },
	{ "prog-stats", OPT_PROG_STATS, NULL, 0, "Measuring aid: at the end, each program's runs and "
	  "mean run time on stderr (kernel BPF run-time stats, on while tracing; they add their own "
	  "cost)", 0 },
	{ "empty-programs", OPT_EMPTY_PROGRAMS, NULL, 0, "Measuring aid: every probe is attached but "
	  "returns at once (nothing is counted): the cost left is the probes' dispatch", 0 },
	{ "task-slots", OPT_TASK_SLOTS, "N", 0, "Testing aid: the slot array holding task state has N "
	  "slots (a power of two, default 8192); with 1 nearly every task's state goes to task "
	  "storage", 0 },
	{ 0 },
};

static long parse_long(const char *flag, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		usage_error("invalid value for %s: '%s' (expected an integer %ld..%ld)", flag, s, lo, hi);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'p':
		opt.pid = (int)parse_long("--pid", arg, 1, INT_MAX);
		break;
	case 'c':
		if (strlen(arg) >= KT_COMM_LEN)
			usage_error("invalid value for --comm: '%s' (a comm has at most %d characters)",
				    arg, KT_COMM_LEN - 1);
		strcpy(opt.comm, arg);
		break;
	case 's':
		opt.source = CHOOSE_AUTO;
		if (strcmp(arg, "auto")) {
			for (opt.source = 0; opt.source < KT_SRC_COUNT; opt.source++)
				if (!strcmp(arg, source_key[opt.source]))
					break;
			if (opt.source == KT_SRC_COUNT)
				usage_error("invalid value for --source: '%s' (expected auto, tracepoint, fentry or sched)",
					    arg);
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
			usage_error("invalid value for --kinds: '%s' (expected unotif,ptrace or unotif)", arg);
		break;
	case OPT_ONLY_PROBES: {
		char *list = strdup(arg), *save = NULL;

		if (!list)
			die("out of memory");
		for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			size_t i;

			for (i = 0; i < N_SCHED_PROBES && strcmp(tok, sched_probe[i]); i++)
				;
			if (i == N_SCHED_PROBES)
				usage_error("invalid value for --only-probes: '%s' (expected a list of "
					    "sys_exit, sched_switch, sched_waking)", tok);
			opt.only_probes |= 1U << i;
		}
		free(list);
		break;
	}
	case OPT_PROG_STATS:
		opt.prog_stats = true;
		break;
	case OPT_EMPTY_PROGRAMS:
		opt.empty_programs = true;
		break;
	case OPT_TASK_SLOTS:
		opt.task_slots = (unsigned int)parse_long("--task-slots", arg, 1, 1 << 22);
		if (opt.task_slots & (opt.task_slots - 1))
			usage_error("invalid value for --task-slots: '%s' (not a power of two)", arg);
		break;
	case OPT_READY_FD:
		opt.ready_fd = (int)parse_long("--ready-fd", arg, 0, INT_MAX);
		if (fcntl(opt.ready_fd, F_GETFL) < 0)
			usage_error("invalid value for --ready-fd: '%s' (not an open descriptor)", arg);
		if ((fcntl(opt.ready_fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
			usage_error("invalid value for --ready-fd: '%s' (open for reading only)", arg);
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

/* The patched kernel's events, in BTF: tp_btf programs attach by their BTF type. */
static bool seccomp_tracepoints(char *why, size_t len)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	bool in_btf = vmlinux && btf__find_by_name_kind(vmlinux, "btf_trace_seccomp_notif_queued",
							BTF_KIND_TYPEDEF) > 0;

	btf__free(vmlinux);
	if (in_btf)
		return true;
	if (!access("/sys/kernel/tracing/events/seccomp/seccomp_notif_queued", F_OK))
		snprintf(why, len, "seccomp:seccomp_notif_* tracepoints exist but are not in the kernel's BTF");
	else
		snprintf(why, len, "no seccomp:seccomp_notif_* tracepoints (a kernel without kernel/patches/0001)");
	return false;
}

/*
 * Trial load and attach of an empty fentry program on func, the way
 * libbpf-tools decides between fentry and its fallbacks.
 */
static bool fentry_works(const char *func, char *why, size_t len)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id = vmlinux ? btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) : -ENOENT;
	int fd, link;

	btf__free(vmlinux);
	if (id <= 0) {
		snprintf(why, len, "fentry: %s is not in the kernel's BTF", func);
		return false;
	}
	LIBBPF_OPTS(bpf_prog_load_opts, lopts, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = (__u32)id);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "kt_fentry_try", "GPL", insns, 2, &lopts);
	if (fd < 0) {
		snprintf(why, len, "fentry on %s refused at load: %s", func, strerror(errno));
		return false;
	}
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link < 0) {
		snprintf(why, len, "fentry on %s refused at attach: %s", func, strerror(errno));
		close(fd);
		return false;
	}
	close(link);
	close(fd);
	return true;
}

struct source_probe {
	bool ok[KT_SRC_COUNT];
	char why[KT_SRC_COUNT][200];
};

static int choose_source(struct source_probe *sp)
{
	sp->ok[KT_SRC_TRACEPOINT] = seccomp_tracepoints(sp->why[KT_SRC_TRACEPOINT], sizeof(sp->why[0]));
	sp->ok[KT_SRC_FENTRY] = fentry_works("__seccomp_filter", sp->why[KT_SRC_FENTRY], sizeof(sp->why[0]));
	sp->ok[KT_SRC_SCHED] = true;
	if (opt.source != CHOOSE_AUTO)
		return sp->ok[opt.source] ? opt.source : -1;
	for (int s = 0; s < KT_SRC_COUNT; s++)
		if (sp->ok[s])
			return s;
	return -1;
}

/* --empty-programs: each probe chosen to load gives its place to its empty twin. */
static void set_autoload_empty(struct knotif_trace_bpf *skel)
{
	struct bpf_program *twin[][2] = {
		{ skel->progs.tp_queued, skel->progs.empty_queued },
		{ skel->progs.tp_received, skel->progs.empty_received },
		{ skel->progs.tp_replied, skel->progs.empty_replied },
		{ skel->progs.tp_addfd, skel->progs.empty_addfd },
		{ skel->progs.tp_interrupted, skel->progs.empty_interrupted },
		{ skel->progs.tp_listener_gone, skel->progs.empty_listener_gone },
		{ skel->progs.tp_resumed, skel->progs.empty_resumed },
		{ skel->progs.on_sys_exit, skel->progs.empty_sys_exit },
		{ skel->progs.on_switch, skel->progs.empty_switch },
		{ skel->progs.on_waking, skel->progs.empty_waking },
		{ skel->progs.fentry_seccomp_filter, skel->progs.empty_seccomp_filter },
	};

	for (size_t i = 0; i < sizeof(twin) / sizeof(twin[0]); i++) {
		bool load = bpf_program__autoload(twin[i][0]);

		bpf_program__set_autoload(twin[i][0], load && !opt.empty_programs);
		bpf_program__set_autoload(twin[i][1], load && opt.empty_programs);
	}
}

/* Only the chosen source's programs load; the others keep their twins out. */
static void set_autoload(struct knotif_trace_bpf *skel, int source)
{
	struct bpf_program *tp[] = {
		skel->progs.tp_queued, skel->progs.tp_received, skel->progs.tp_replied,
		skel->progs.tp_addfd, skel->progs.tp_interrupted, skel->progs.tp_listener_gone,
		skel->progs.tp_resumed,
	};

	for (size_t i = 0; i < sizeof(tp) / sizeof(tp[0]); i++)
		bpf_program__set_autoload(tp[i], source == KT_SRC_TRACEPOINT);
	bpf_program__set_autoload(skel->progs.fentry_seccomp_filter, source == KT_SRC_FENTRY);
	/* the fork probe only grows a --pid or COMMAND tree */
	bpf_program__set_autoload(skel->progs.on_fork, opt.pid || opt.command);
	skel->rodata->unotif_from_syscalls = source != KT_SRC_TRACEPOINT;
	/*
	 * The seccomp events need no other probe; the syscall and scheduler
	 * ones (a raw_syscalls:sys_exit attachment costs every syscall of the
	 * machine) then serve only ptrace.
	 */
	if (source == KT_SRC_TRACEPOINT && opt.no_ptrace) {
		bpf_program__set_autoload(skel->progs.on_sys_exit, false);
		bpf_program__set_autoload(skel->progs.on_switch, false);
		bpf_program__set_autoload(skel->progs.on_waking, false);
	} else if (opt.only_probes) {
		struct bpf_program *prog[N_SCHED_PROBES] = {
			skel->progs.on_sys_exit, skel->progs.on_switch, skel->progs.on_waking,
		};

		for (size_t i = 0; i < N_SCHED_PROBES; i++)
			bpf_program__set_autoload(prog[i], opt.only_probes & (1U << i));
	}
	set_autoload_empty(skel);
}

/*
 * --prog-stats: what each loaded program cost, from the kernel's own BPF
 * run-time stats (the time inside the program, its helpers included; not
 * the tracepoint's dispatch to it). Under QEMU -icount a ns is an
 * instruction.
 */
static void print_prog_stats(const struct knotif_trace_bpf *skel, FILE *out)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0)
			continue;	/* not loaded: another source's or an unneeded attachment */
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			fprintf(out, "# prog-stats: %s: %s\n", bpf_program__name(prog), strerror(errno));
			continue;
		}
		fprintf(out, "# prog-stats: %-16s %12llu runs %14llu ns %10.1f ns/run\n",
			bpf_program__name(prog), (unsigned long long)info.run_cnt,
			(unsigned long long)info.run_time_ns,
			info.run_cnt ? (double)info.run_time_ns / (double)info.run_cnt : 0.0);
	}
}

/*
 * The record stream, with the records of interrupted calls whose number no
 * supervisor had received yet (KT_F_UNCONFIRMED, the trace's first calls)
 * held back: each is written once a RECV of its number shows it was a
 * notification (the programs count it then too), or dropped at the end.
 */
#define HELD_MAX 4096

struct event_sink {
	struct report *r;
	const struct knotif_trace_bpf *skel;
	struct kt_event held[HELD_MAX];
	size_t nheld;
	unsigned long long held_lost;	/* past HELD_MAX: said at the end */
};

static bool nr_notified(const struct event_sink *k, int nr)
{
	const volatile __u64 *bits = k->skel->bss->notified_nrs;
	size_t nwords = sizeof(k->skel->bss->notified_nrs) / sizeof(bits[0]);

	return nr >= 0 && (size_t)nr / 64 < nwords && (bits[nr / 64] >> (nr % 64) & 1);
}

static int sink_write(struct event_sink *k, struct kt_event *e)
{
	e->flags &= ~KT_F_UNCONFIRMED;
	return report_add(k->r, e);
}

/* writes the held records now confirmed; at_end, drops the rest */
static int sink_release(struct event_sink *k, bool at_end)
{
	size_t kept = 0;
	int err = 0;

	for (size_t i = 0; i < k->nheld; i++) {
		if (nr_notified(k, k->held[i].nr))
			err = err ? err : sink_write(k, &k->held[i]);
		else if (!at_end)
			k->held[kept++] = k->held[i];
	}
	k->nheld = kept;
	return err;
}

static int handle_event(void *ctx, void *data, size_t len)
{
	struct event_sink *k = ctx;
	struct kt_event e;

	if (len < sizeof(e))
		return -EPROTO;
	memcpy(&e, data, sizeof(e));
	if (!(e.flags & KT_F_UNCONFIRMED) || nr_notified(k, e.nr))
		return sink_write(k, &e);
	if (k->nheld == HELD_MAX) {
		k->held_lost++;
		return 0;
	}
	k->held[k->nheld++] = e;
	return 0;
}

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL	/* linux/pidfd.h, 6.9 */
#endif

/*
 * Thread tid joins the traced tree: its state says selected; what it forks
 * inherits that in the fork probe. Before the programs are attached nothing
 * else writes the slots, and tid gets its slot when it is free; otherwise
 * (attached, or the slot another thread's) its task storage, made through a
 * pidfd (the map's key from user space), and the programs are told to look
 * there.
 */
static int select_thread(struct knotif_trace_bpf *skel, pid_t tid, bool attached)
{
	int slots_fd = bpf_map__fd(skel->maps.slots), fd, err = 0;
	struct kt_task st = { .selected = 1 };
	__u32 key = (__u32)tid & (opt.task_slots - 1);
	struct kt_task cur;

	if (bpf_map_lookup_elem(slots_fd, &key, &cur))
		return -errno;
	if (cur.tid == (unsigned long long)tid)
		return 0;	/* selected already */
	if (!attached && !cur.tid) {
		st.tid = (unsigned long long)tid;
		return bpf_map_update_elem(slots_fd, &key, &st, BPF_ANY) ? -errno : 0;
	}
	fd = (int)syscall(SYS_pidfd_open, tid, 0);
	if (fd < 0 && errno == EINVAL)	/* not a thread-group leader */
		fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (fd < 0)
		return -errno;
	skel->bss->storage_used = true;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.tasks), &fd, &st, BPF_NOEXIST) && errno != EEXIST)
		err = -errno;
	close(fd);
	return err;
}

/*
 * Every thread of --pid's process: before the programs are attached (their
 * slots), and again after the fork probe is (a thread made meanwhile by one
 * already selected is selected there; one made by a thread not yet
 * selected shows up in the second listing).
 */
static int select_process(struct knotif_trace_bpf *skel, pid_t pid, bool attached)
{
	char path[64];
	int selected = 0, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	for (int pass = 0; pass < (attached ? 2 : 1); pass++) {
		DIR *d = opendir(path);
		struct dirent *de;

		if (!d)
			return -errno;
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);
			int e;

			if (tid <= 0)
				continue;
			e = select_thread(skel, tid, attached);
			if (!e)
				selected++;
			else if (e != -ESRCH && !err)
				err = e;
		}
		closedir(d);
	}
	return selected ? 0 : (err ? err : -ESRCH);
}

/* select_process() for --pid: 0, or 1 with the reason said in one line */
static int select_pid(struct knotif_trace_bpf *skel, pid_t pid, bool attached)
{
	int err = select_process(skel, pid, attached);

	if (err)
		fprintf(stderr, "%s: --pid %d: %s\n", knotif_prog, (int)pid,
			err == -ESRCH ? "no such process" : strerror(-err));
	return err ? 1 : 0;
}

/*
 * COMMAND's process, made before the programs are attached and held until
 * start_command(): it joins the traced tree before it runs, so everything
 * it forks (a benchmark's supervisor and target) is followed too. A tracer
 * that gives up closes *go: the child exits without running COMMAND.
 */
static pid_t fork_command(char **argv, struct knotif_trace_bpf *skel, int *go_fd)
{
	pid_t pid, tracer = getpid();
	int go[2], err;
	char c;

	if (pipe(go))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		/* a tracer killed outright (SIGKILL: no handler) takes COMMAND with it */
		if (pdeath_follow(tracer, SIGKILL))
			_exit(127);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the tracer gave up */
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", knotif_prog, argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	if (pid < 0) {
		close(go[1]);
		return -1;
	}
	err = select_thread(skel, pid, false);
	if (err) {
		fprintf(stderr, "%s: following %s: %s\n", knotif_prog, argv[0], strerror(-err));
		close(go[1]);
		waitpid(pid, NULL, 0);
		errno = -err;
		return -1;
	}
	*go_fd = go[1];
	return pid;
}

/* COMMAND runs (everything is attached). */
static int start_command(int *go_fd)
{
	int err = write(*go_fd, "g", 1) == 1 ? 0 : -1;

	close(*go_fd);
	*go_fd = -1;
	return err;
}

/* The per-CPU counts and histograms, summed: what the kernel side has aggregated so far. */
static int read_snapshot(const struct knotif_trace_bpf *skel, struct trace_snapshot *s)
{
	int ncpu = libbpf_num_possible_cpus();
	struct kt_counts *c;
	struct kt_phases *h;
	struct kt_hist one;
	__u32 key = 0;
	int err = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	c = calloc((size_t)ncpu, sizeof(*c));
	h = calloc(1, sizeof(*h));
	memset(s, 0, sizeof(*s));
	if (!c || !h) {
		err = -ENOMEM;
		goto out;
	}
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.counts), &key, c)) {
		err = -errno;
		goto out;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		for (int k = 0; k < KT_KIND_COUNT; k++)
			for (int t = 0; t < KT_TRANSITION_COUNT; t++)
				s->c.n[k][t] += c[cpu].n[k][t];
		s->c.events_dropped += c[cpu].events_dropped;
		s->c.state_unavailable += c[cpu].state_unavailable;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		for (int k = 0; k < KT_KIND_COUNT; k++) {
			key = (__u32)(cpu * KT_KIND_COUNT + k);
			if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.hists), &key, h)) {
				err = -errno;
				goto out;
			}
			for (int p = 0; p < KT_PHASE_COUNT; p++) {
				hist_from_kernel(&one, &h->ph[p]);
				hist_merge(&s->h[k][p], &one);
			}
		}
	}
out:
	free(c);
	free(h);
	return err;
}

/* What happened since the last interval's read. */
static void snapshot_delta(struct trace_snapshot *d, const struct trace_snapshot *now,
			   const struct trace_snapshot *before)
{
	for (int k = 0; k < KT_KIND_COUNT; k++) {
		for (int t = 0; t < KT_TRANSITION_COUNT; t++)
			d->c.n[k][t] = now->c.n[k][t] - before->c.n[k][t];
		for (int p = 0; p < KT_PHASE_COUNT; p++)
			hist_delta(&d->h[k][p], &now->h[k][p], &before->h[k][p]);
	}
	d->c.events_dropped = now->c.events_dropped - before->c.events_dropped;
	d->c.state_unavailable = now->c.state_unavailable - before->c.state_unavailable;
}

static json_t *summary_json(const struct options *o, int source, const struct source_probe *sp,
			    const struct trace_snapshot *snap)
{
	json_t *unsup = json_object(), *filter = json_object(), *s;
	struct utsname uts;

	uname(&uts);
	for (int i = 0; i < KT_SRC_COUNT; i++)
		if (!sp->ok[i])
			json_object_set_new(unsup, source_key[i], json_sprintf("unsupported: %s", sp->why[i]));
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
		"slots", "HDR-style: one per ns below 2^6 ns, then 64 linear slots per power of two",
		"sub_buckets", KT_SUB, "max_relative_error", 1.0 / (2 * KT_SUB),
		"quantiles", "numpy type 7 over slot midpoints clamped to [min, max]; "
			     "count, min, max, mean exact; stddev from midpoints"));
	return s;
}

static void print_warnings(FILE *out, const struct trace_snapshot *s)
{
	if (s->c.events_dropped || s->c.state_unavailable)
		fprintf(out, "# WARNING: %llu events dropped (ring buffer full), %llu tasks not followed "
			"(no task storage): counts above are incomplete\n",
			s->c.events_dropped, s->c.state_unavailable);
}

/*
 * One block: what happened since the previous read, labelled with the time
 * that really passed (*since_ns: when that read was). A tracer stopped or
 * starved past its ticks prints one block for the whole gap, never one
 * per missed tick.
 */
static void print_interval(const struct knotif_trace_bpf *skel, FILE *out, struct trace_snapshot *prev,
			   struct trace_snapshot *now, struct trace_snapshot *delta, int64_t *since_ns)
{
	int64_t read_ns = now_ns();
	struct timespec ts;
	struct tm tm;
	char when[32];

	if (read_snapshot(skel, now)) {
		fprintf(stderr, "%s: reading the maps: %s\n", knotif_prog, strerror(errno));
		return;
	}
	snapshot_delta(delta, now, prev);
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fprintf(out, "\n# %s, the last %.3f s:\n", when, (double)(read_ns - *since_ns) / 1e9);
	*since_ns = read_ns;
	report_print(delta, out, !opt.quiet);
	print_warnings(out, delta);
	fflush(out);
	memcpy(prev, now, sizeof(*prev));
}

/*
 * argp and getopt print their complaints as two lines, prefixed with argv[0]
 * as typed; every knotif tool says one line. While parsing, stderr is a
 * memory stream; when argp (or a usage_error of ours) exits, its first line
 * is said again as ours.
 */
static FILE *real_stderr;
static char *parse_msg;
static size_t parse_msg_len;

static void say_parse_error(void)
{
	size_t ours = strlen(knotif_prog);
	char *line, *colon;

	if (!real_stderr)
		return;
	fclose(stderr);
	stderr = real_stderr;
	real_stderr = NULL;
	line = parse_msg ? strtok(parse_msg, "\n") : NULL;
	if (!line)
		return;	/* --help, --usage, --version: nothing went wrong */
	if (!strncmp(line, knotif_prog, ours) && line[ours] == ':') {
		fprintf(stderr, "%s\n", line);	/* a usage_error of ours: already one line */
		return;
	}
	colon = strstr(line, ": ");
	fprintf(stderr, "%s: %s%s\n", knotif_prog, colon ? colon + 2 : line,
		strstr(line, "--help") ? "" : " (see --help)");
}

static int parse_options(const struct argp *argp, int argc, char **argv)
{
	FILE *capture = open_memstream(&parse_msg, &parse_msg_len);
	int err;

	if (capture) {
		real_stderr = stderr;
		stderr = capture;
		atexit(say_parse_error);
	}
	err = argp_parse(argp, argc, argv, 0, NULL, NULL);
	if (real_stderr) {
		fclose(stderr);
		stderr = real_stderr;
		real_stderr = NULL;
	}
	free(parse_msg);
	return err;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, NULL, doc, NULL, NULL, NULL };
	struct trace_snapshot *snap = NULL, *prev = NULL, *delta = NULL;
	struct knotif_trace_bpf *skel = NULL;
	struct ring_buffer *rb = NULL;
	struct source_probe sp = { 0 };
	struct report rep = { 0 };
	static struct event_sink sink;	/* 400 KiB of held records: not on the stack */
	FILE *out = stdout, *summary_file = NULL;
	int64_t deadline = 0, next_interval = 0, interval_from = 0;
	pid_t child = 0;
	int err = 0, source, status, stats_fd = -1, go_fd = -1;

	knotif_prog = "knotif-trace";
	argp_err_exit_status = EXIT_USAGE;	/* argp's own usage errors exit 2 too */
	err = parse_options(&argp, argc, argv);
	if (err)
		usage_error("bad arguments (see --help)");
	if (opt.pid && kill(opt.pid, 0) && errno == ESRCH)
		usage_error("invalid value for --pid: '%d' (no such process)", opt.pid);
	libbpf_set_print(libbpf_print);
	/* output paths are checked before anything is traced: one we cannot write is bad usage */
	if (opt.summary && !(summary_file = fopen(opt.summary, "w")))
		usage_error("cannot write --summary=%s: %s", opt.summary, strerror(errno));
	if (opt.events) {
		rep.stream = strcmp(opt.events, "-") ? fopen(opt.events, "w") : stdout;
		if (!rep.stream)
			usage_error("cannot write --events=%s: %s", opt.events, strerror(errno));
		if (rep.stream == stdout)
			out = stderr;	/* the stream owns stdout; the summary goes aside */
		rep.format = opt.format;
	}

	source = choose_source(&sp);
	if (source < 0) {
		fprintf(stderr, "%s: unsupported: --source=%s: %s\n", knotif_prog, source_key[opt.source],
			sp.why[opt.source]);
		err = EXIT_UNSUPPORTED;
		goto cleanup;
	}
	snap = calloc(1, sizeof(*snap));
	prev = calloc(1, sizeof(*prev));
	delta = calloc(1, sizeof(*delta));
	if (!snap || !prev || !delta) {
		fprintf(stderr, "%s: out of memory\n", knotif_prog);
		err = 1;
		goto cleanup;
	}

	skel = knotif_trace_bpf__open();
	if (!skel) {
		fprintf(stderr, "%s: opening the BPF object: %s\n", knotif_prog, strerror(errno));
		err = 1;
		goto cleanup;
	}
	skel->rodata->use_tree = opt.pid || opt.command;
	memcpy((char *)skel->rodata->targ_comm, opt.comm, KT_COMM_LEN);
	skel->rodata->have_filter = opt.pid || opt.command || opt.comm[0];
	skel->rodata->want_ptrace = !opt.no_ptrace;
	skel->rodata->want_events = opt.events != NULL;
	skel->rodata->slot_mask = opt.task_slots - 1;
	bpf_map__set_max_entries(skel->maps.slots, opt.task_slots);
	if (libbpf_num_possible_cpus() > 0)	/* else read_snapshot() says why */
		bpf_map__set_max_entries(skel->maps.hists,
					 (__u32)libbpf_num_possible_cpus() * KT_KIND_COUNT);
	if (!opt.events)	/* never written: the smallest ring there is */
		bpf_map__set_max_entries(skel->maps.events, (__u32)sysconf(_SC_PAGESIZE));
	set_autoload(skel, source);

	err = knotif_trace_bpf__load(skel);
	if (err) {
		err = -err;
		if (err == EPERM || err == EACCES)
			fprintf(stderr, "%s: unsupported: loading BPF programs needs root (CAP_BPF and "
				"CAP_PERFMON): %s\n", knotif_prog, strerror(err));
		else
			fprintf(stderr, "%s: unsupported: the kernel refused the %s programs: %s "
				"(run with -v for the verifier's log)\n", knotif_prog, source_key[source],
				strerror(err));
		err = EXIT_UNSUPPORTED;
		goto cleanup;
	}
	/* the traced tree's first tasks take their slots while no program can */
	if (opt.pid && (err = select_pid(skel, opt.pid, false)))
		goto cleanup;
	if (opt.command) {
		child = fork_command(opt.command, skel, &go_fd);
		if (child < 0) {
			fprintf(stderr, "%s: starting %s: %s\n", knotif_prog, opt.command[0], strerror(errno));
			child = 0;
			err = 1;
			goto cleanup;
		}
	}
	if (opt.prog_stats) {
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			fprintf(stderr, "%s: unsupported: --prog-stats: enabling BPF run-time stats: %s\n",
				knotif_prog, strerror(errno));
			err = EXIT_UNSUPPORTED;
			goto cleanup;
		}
	}
	err = knotif_trace_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "%s: unsupported: attaching the %s probes: %s\n", knotif_prog,
			source_key[source], strerror(-err));
		err = EXIT_UNSUPPORTED;
		goto cleanup;
	}
	if (opt.pid && (err = select_pid(skel, opt.pid, true)))
		goto cleanup;

	if (opt.events) {
		report_stream_header(&rep);
		sink.r = &rep;
		sink.skel = skel;
		rb = ring_buffer__new(bpf_map__fd(skel->maps.events), handle_event, &sink, NULL);
		if (!rb) {
			fprintf(stderr, "%s: ring buffer: %s\n", knotif_prog, strerror(errno));
			err = 1;
			goto cleanup;
		}
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(out, "# knotif-trace %s: source %s (%s)\n", KNOTIF_VERSION, source_key[source],
		source_detail[source]);
	for (int s = 0; s < KT_SRC_COUNT; s++)
		if (!sp.ok[s])
			fprintf(out, "# %s: unsupported: %s\n", source_key[s], sp.why[s]);
	if (opt.only_probes)
		fprintf(out, "# measuring: only some probes attached (--only-probes): counts and phases "
			"are incomplete\n");
	if (opt.empty_programs)
		fprintf(out, "# measuring: every probe returns at once (--empty-programs): nothing is "
			"counted\n");
	if (opt.pid || opt.command || opt.comm[0])
		fprintf(out, "# filter:%s%.0d%s%s%s\n", opt.pid ? " pid " : "", opt.pid,
			opt.command ? " COMMAND and its children" : "", opt.comm[0] ? " comm " : "",
			opt.comm);
	fflush(out);
	if (opt.ready_fd >= 0) {
		if (write(opt.ready_fd, "ready\n", 6) != 6)
			fprintf(stderr, "%s: writing to --ready-fd: %s\n", knotif_prog, strerror(errno));
		close(opt.ready_fd);
	}
	if (opt.command) {
		if (start_command(&go_fd)) {
			fprintf(stderr, "%s: starting %s: %s\n", knotif_prog, opt.command[0], strerror(errno));
			err = 1;
			goto cleanup;
		}
	} else if (isatty(STDERR_FILENO)) {
		fprintf(stderr, "Tracing seccomp notifications... Hit Ctrl-C to end.\n");
	}
	if (opt.duration_s > 0)
		deadline = now_ns() + (int64_t)(opt.duration_s * 1e9);
	if (opt.interval_s > 0) {
		interval_from = now_ns();
		next_interval = interval_from + (int64_t)(opt.interval_s * 1e9);
	}

	/*
	 * Without --events nothing needs reading until the end (or the next
	 * interval): the loop only watches COMMAND, the clock and signals.
	 */
	while (!stop) {
		if (rb) {
			err = ring_buffer__poll(rb, 50);
			if (err >= 0)
				err = sink_release(&sink, false);
		} else {
			struct timespec nap = { 0, 50 * 1000 * 1000 };

			err = nanosleep(&nap, NULL) ? -errno : 0;
		}
		if (err == -EINTR) {
			err = 0;
			continue;
		}
		if (err < 0) {
			fprintf(stderr, "%s: reading events: %s\n", knotif_prog, strerror(-err));
			err = 1;
			goto cleanup;
		}
		err = 0;
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, "%s: %s failed (%s %d)\n", knotif_prog, opt.command[0],
					WIFEXITED(status) ? "exit status" : "signal",
					WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
				err = 1;
			}
			break;
		}
		if (next_interval && now_ns() >= next_interval) {
			print_interval(skel, out, prev, snap, delta, &interval_from);
			next_interval += (int64_t)(opt.interval_s * 1e9);
			if (next_interval <= interval_from)	/* ticks missed: the next from now */
				next_interval = interval_from + (int64_t)(opt.interval_s * 1e9);
		}
		if (deadline && now_ns() >= deadline)
			break;
	}
	if (rb && (ring_buffer__consume(rb) < 0 || sink_release(&sink, true) < 0))
		fprintf(stderr, "%s: draining the last events failed\n", knotif_prog);
	if (sink.held_lost)
		fprintf(stderr, "%s: warning: %llu records of calls interrupted before their number's first "
			"RECV were not kept (more than %d held at once); the counts hold them\n",
			knotif_prog, sink.held_lost, HELD_MAX);

	if (read_snapshot(skel, snap)) {
		fprintf(stderr, "%s: reading the maps: %s\n", knotif_prog, strerror(errno));
		err = 1;
		goto cleanup;
	}
	if (opt.interval_s > 0)
		fprintf(out, "\n# the whole run:\n");
	report_print(snap, out, !opt.quiet);
	print_warnings(out, snap);
	if (opt.prog_stats)
		print_prog_stats(skel, stderr);
	if (opt.summary) {
		json_t *s = summary_json(&opt, source, &sp, snap);

		if (json_dumpf(s, summary_file, JSON_INDENT(2) | JSON_SORT_KEYS) ||
		    fputc('\n', summary_file) == EOF) {
			fprintf(stderr, "%s: cannot write %s\n", knotif_prog, opt.summary);
			err = 1;
		}
		json_decref(s);
	}

cleanup:
	if (go_fd >= 0)
		close(go_fd);	/* COMMAND never started: it exits */
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	if (summary_file && fclose(summary_file)) {
		fprintf(stderr, "%s: writing %s: %s\n", knotif_prog, opt.summary, strerror(errno));
		err = 1;
	}
	if (rep.stream && rep.stream != stdout && fclose(rep.stream)) {
		fprintf(stderr, "%s: writing %s: %s\n", knotif_prog, opt.events, strerror(errno));
		err = 1;
	}
	ring_buffer__free(rb);
	knotif_trace_bpf__destroy(skel);
	if (stats_fd >= 0)
		close(stats_fd);
	free(snap);
	free(prev);
	free(delta);
	return err;
}
