// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-run: run a command under seccomp user notification, the way a
 * container runtime's seccomp agent does. The command's process (the child
 * of our keeper, keeper.h) installs a filter that turns the chosen system
 * calls into notifications, hands the listener to us over SCM_RIGHTS, and
 * only then execs the command (execve is in the default set: the listener
 * must be in our hands before the first trapped call). We log every call
 * and let it continue, but for the calls an --emulate emulation answers
 * (emulation.h: device nodes, tmpfs mounts, ...).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "cli_options.h"
#include "clock.h"
#include "fdpass.h"
#include "filter.h"
#include "keeper.h"
#include "kernel_features.h"
#include "supervise.h"
#include "table.h"

#define DEFAULT_SYSCALLS "openat,execve,connect"

enum { OPT_SYSCALLS = 256, OPT_LOG, OPT_QUIET, OPT_FORMAT, OPT_SUMMARY, OPT_LIST, OPT_EMULATE,
       OPT_POLICY };

static const struct cli_option log_options[] = {
	{ "syscalls", OPT_SYSCALLS, required_argument, "--syscalls=LIST",
	  "comma-separated names to intercept (default " DEFAULT_SYSCALLS ")" },
	{ "log", OPT_LOG, required_argument, "--log=FILE",
	  "write one line per intercepted call to FILE (default stderr)" },
	{ "quiet", OPT_QUIET, no_argument, "--quiet", "log nothing (arguments are not read)" },
	{ "format", OPT_FORMAT, required_argument, "--format=FMT",
	  "log lines as text (strace-like, default) or json" },
	{ "summary", OPT_SUMMARY, no_argument, "--summary", "at exit, the count of calls per system call" },
	CLI_OPTIONS_END,
};
/* --emulate: a --help entry per emulation (emulation.h), written by emulate_option() */
static struct cli_option emulate_options[EMULATIONS_MAX + 2];
static const struct cli_option other_options[] = {
	{ "policy", OPT_POLICY, required_argument, "--policy=FILE",
	  "the devices --emulate=mknod creates (default: null, zero, full,\n"
	  "random, urandom, tty and the overlay whiteout c 0:0)" },
	{ "list-syscalls", OPT_LIST, no_argument, "--list-syscalls",
	  "print the names --syscalls accepts and exit" },
	CLI_HELP_OPTION,
	CLI_VERSION_OPTION,
	CLI_OPTIONS_END,
};

static const struct cli_spec spec = {
	.head =
"Usage: knotif-run [OPTION]... [--] COMMAND [ARG]...\n"
"Run COMMAND under seccomp user notification: every call to the chosen system\n"
"calls stops in the kernel, is read and logged here, and continues unchanged.\n"
"\n",
	.tables = (const struct cli_option *const[]){ log_options, emulate_options, other_options,
						      NULL },
	.tail =
"\n"
"knotif-run serves the listener until every process that inherited the filter\n"
"(the command and all its descendants) has exited, then exits with the\n"
"command's status: its exit code, or 128+N if signal N killed it; 127 if it\n"
"was not found, 126 if it could not be run; 1 if knotif-run itself failed,\n"
"2 on bad usage. The command runs with no_new_privs set (set-user-ID bits\n"
"have no effect), as every unprivileged seccomp filter requires; as root, in a\n"
"PID namespace of its own, so that it dies with knotif-run whatever kills it.\n"
"\n"
"Examples:\n"
"  knotif-run -- make -j2                      log opens, execs and connects\n"
"  knotif-run --quiet --summary -- ls /usr     only the counts\n"
"  knotif-run --syscalls=execve --format=json --log=exec.jsonl -- sh build.sh\n",
	.column = 22,
	.stop_at_operand = true,	/* the first operand is the command; its own options are not ours */
};

/* --emulate=NAME's --help entry for each emulation: the option once, the others as lines */
static void emulate_option(void)
{
	static char shown[EMULATIONS_MAX][32];
	int e;

	for (e = 0; emulations[e]; e++) {
		snprintf(shown[e], sizeof(shown[e]), "--emulate=%s", emulations[e]->name);
		emulate_options[e] = (struct cli_option){ e ? NULL : "emulate", e ? 0 : OPT_EMULATE,
							  e ? 0 : required_argument, shown[e],
							  emulations[e]->help };
	}
	emulate_options[e] = (struct cli_option){ .shown = "",
						  .help = "(a list does several: --emulate=mknod,mount)" };
}

struct options {
	const struct syscall_args *watched[FILTER_MAX_SYSCALLS];
	int nwatched;
	const char *log_path;
	bool quiet, summary;
	enum log_format format;
	bool emulate[EMULATIONS_MAX];	/* by emulations[] index */
	const char *policy_path;
	char **command;
};

static void list_syscalls(FILE *out)
{
	for (int i = 0; i < syscall_args_count(); i++)
		fprintf(out, "%s\n", syscall_args_at(i)->name);
}

static void parse_syscalls(struct options *o, const char *list)
{
	char *copy = strdup(list), *save = NULL;

	if (!copy)
		die("out of memory");
	cli_list_check("--syscalls", list);
	o->nwatched = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct syscall_args *sc = syscall_args_by_name(tok);
		bool dup = false;

		if (!sc)
			usage_error("unknown system call '%s' in --syscalls (see --list-syscalls)", tok);
		for (int i = 0; i < o->nwatched; i++)
			dup |= o->watched[i] == sc;
		if (!dup)
			o->watched[o->nwatched++] = sc;	/* the table is shorter than the cap */
	}
	free(copy);
	if (!o->nwatched)
		usage_error("--syscalls needs at least one system call name");
}

/* --emulate=LIST: the emulations' names, in any order */
static void parse_emulate(struct options *o, const char *list)
{
	const char *names[EMULATIONS_MAX];
	char expected[256] = "";
	int n = 0;

	for (; emulations[n]; n++) {
		names[n] = emulations[n]->name;
		snprintf(expected + strlen(expected), sizeof(expected) - strlen(expected), "%s%s",
			 n ? ", " : "", names[n]);
	}
	cli_choices("--emulate", list, names, n, o->emulate, expected);
}

/* Each chosen emulation's configuration (--policy to those that take one): bad ones exit 2. */
static void configure_emulations(const struct options *o)
{
	bool policy_taken = false;

	for (int e = 0; emulations[e]; e++) {
		char why[PATH_MAX + 128];

		if (!o->emulate[e] || !emulations[e]->configure)
			continue;
		policy_taken |= o->policy_path != NULL;
		if (emulations[e]->configure(o->policy_path, why, sizeof(why)))
			usage_error("invalid --policy: %s", why);
	}
	if (o->policy_path && !policy_taken)
		usage_error("--policy needs --emulate=mknod");
}

static void parse_options(struct options *o, int argc, char **argv)
{
	int c;

	parse_syscalls(o, DEFAULT_SYSCALLS);
	emulate_option();
	while ((c = cli_next_option(&spec, argc, argv)) != -1) {
		switch (c) {
		case OPT_SYSCALLS:
			parse_syscalls(o, optarg);
			break;
		case OPT_LOG:
			o->log_path = optarg;
			break;
		case OPT_QUIET:
			o->quiet = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				o->format = LOG_TEXT;
			else if (!strcmp(optarg, "json"))
				o->format = LOG_JSON;
			else
				usage_error("invalid value for --format: '%s' (expected text or json)", optarg);
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_LIST:
			list_syscalls(stdout);
			exit(0);
		case OPT_EMULATE:
			parse_emulate(o, optarg);
			break;
		case OPT_POLICY:
			o->policy_path = optarg;
			break;
		}
	}
	if (o->quiet && o->log_path)
		usage_error("--quiet and --log exclude each other");
	configure_emulations(o);
	if (optind >= argc)
		usage_error("no command to run (see --help)");
	o->command = argv + optind;
}

/*
 * In the command's process (the keeper's child): hand knotif-run a pidfd
 * of ourselves (the signals it passes on), filter, hand the listener over,
 * then exec. Never returns.
 */
__attribute__((noreturn))
static void run_child(const struct options *o, int sock, const sigset_t *mask)
{
	struct filter_rule rules[FILTER_MAX_SYSCALLS];
	int listener, pidfd, ret, err, n = 0;

	sigprocmask(SIG_SETMASK, mask, NULL);	/* a blocked SIGCHLD would outlive exec */
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		die("pidfd_open: %s (needs Linux 5.3)", strerror(errno));
	ret = fd_send(sock, pidfd);
	if (ret)
		die("handing a pidfd to the supervisor: %s", strerror(-ret));
	close(pidfd);
	for (int i = 0; i < o->nwatched; i++)
		rules[n++] = (struct filter_rule){ .nr = o->watched[i]->nr };
	/* after the watched calls: a watched mknodat is sent whatever it creates */
	for (int e = 0; emulations[e]; e++)
		if (o->emulate[e])
			n += emulations[e]->rules(rules + n);
	listener = filter_install_rules(rules, (size_t)n, SECCOMP_RET_USER_NOTIF,
					SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0)
		die("installing the seccomp filter: %s", strerror(-listener));
	/*
	 * From here on, a trapped call blocks until the supervisor answers: the
	 * only calls made before the listener is across are sendmsg and close,
	 * which --syscalls cannot name.
	 */
	ret = fd_send(sock, listener);
	if (ret)
		die("handing the listener to the supervisor: %s", strerror(-ret));
	close(listener);
	close(sock);
	execvp(o->command[0], o->command);
	err = errno;
	if (err == ENOENT)
		die_code(127, "%s: command not found", o->command[0]);
	die_code(126, "%s: %s", o->command[0], strerror(err));
}

/*
 * A terminal's ^C and ^\ reach the whole foreground process group, the
 * command included: we ignore them and keep serving until it is gone.
 * Signals sent to us alone (kill, a CI job's timeout) arrive on the
 * signalfd and are passed on by run_supervise(). A log reader that goes away
 * is a write error to report, not a SIGPIPE that kills us silently (141)
 * and leaves the command's trapped calls failing with ENOSYS.
 */
static void ignore_signals(void)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
}

/* One --emulate kind's verdict counts: a JSON member, or (t) a note under the table. */
static void print_emulated(FILE *out, struct table *t, const char *call,
			   const char *const verdict[EMULATED_VERDICTS], const int64_t n[EMULATED_VERDICTS])
{
	char note[128];

	if (!t) {
		fprintf(out, ",\"%s\":{\"%s\":%lld,\"%s\":%lld,\"%s\":%lld}", call, verdict[0], (long long)n[0],
			verdict[1], (long long)n[1], verdict[2], (long long)n[2]);
		return;
	}
	snprintf(note, sizeof(note), "%s emulated: %lld %s, %lld %s, %lld %s", call, (long long)n[0], verdict[0],
		 (long long)n[1], verdict[1], (long long)n[2], verdict[2]);
	table_add_note(t, note);
}

/* The helpers each emulation kept: JSON "helpers":{NAME:{"started":N,"reused":M}}, or a note of t. */
static void print_helpers(FILE *out, struct table *t, const struct run_supervisor *s)
{
	bool any = false;

	for (int e = 0; e < s->nemulated; e++) {
		const struct emulation *em = s->emulated[e];
		int64_t started, reused;
		char note[128];

		if (!em->helper_counts)
			continue;
		em->helper_counts(&started, &reused);
		if (t) {
			snprintf(note, sizeof(note), "%s helpers: %lld started, %lld calls to one already running",
				 em->name, (long long)started, (long long)reused);
			table_add_note(t, note);
			continue;
		}
		fprintf(out, "%s\"%s\":{\"started\":%lld,\"reused\":%lld}", any ? "," : ",\"helpers\":{", em->name,
			(long long)started, (long long)reused);
		any = true;
	}
	if (any)
		fputc('}', out);
}

static void print_summary(const struct run_supervisor *s, const struct options *o, FILE *out)
{
	static const char *const headers[] = { "syscall", "calls" };
	struct table *t;
	int64_t total = 0;
	char num[32];

	if (o->format == LOG_JSON) {
		fputs("{\"summary\":{", out);
		for (int i = 0; i < s->nwatched; i++)
			fprintf(out, "%s\"%s\":%lld", i ? "," : "", s->watched[i]->name,
				(long long)s->count[i]);
		fprintf(out, "},\"gone\":%lld", (long long)s->gone);
		if (s->abandoned)
			fprintf(out, ",\"abandoned\":%lld", (long long)s->abandoned);
		for (int e = 0; e < s->nemulated; e++)
			print_emulated(out, NULL, s->emulated[e]->name, s->emulated[e]->verdict_names,
				       s->verdicts[e]);
		print_helpers(out, NULL, s);
		fputs("}\n", out);
		return;
	}
	t = table_new(2, headers, "lr");

	for (int i = 0; i < s->nwatched; i++) {
		const char *cells[2] = { s->watched[i]->name, num };

		snprintf(num, sizeof(num), "%lld", (long long)s->count[i]);
		table_add(t, cells);
		total += s->count[i];
	}
	snprintf(num, sizeof(num), "%lld", (long long)total);
	table_add(t, (const char *const[]){ "total", num });
	for (int e = 0; e < s->nemulated; e++)
		print_emulated(out, t, s->emulated[e]->name, s->emulated[e]->verdict_names, s->verdicts[e]);
	print_helpers(out, t, s);
	if (s->abandoned) {
		char note[128];

		snprintf(note, sizeof(note), "%lld emulated acts abandoned unfinished at the end (logged unknown)",
			 (long long)s->abandoned);
		table_add_note(t, note);
	}
	if (s->gone) {
		char note[96];

		snprintf(note, sizeof(note), "%lld notifications abandoned by a killed or interrupted target",
			 (long long)s->gone);
		table_add_note(t, note);
	}
	table_print(t, out);
	table_free(t);
}

static int exit_code(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	struct options o = { .format = LOG_TEXT };
	struct run_supervisor s = { .listener = -1 };
	char why[256];
	static const int passed_on[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	sigset_t handled, old_mask;
	int sock[2], status[2], ret, end;
	pid_t self = getpid();
	int own_ns;

	knotif_prog = "knotif-run";
	parse_options(&o, argc, argv);
	if (feature_probe(FEAT_NOTIF_CONTINUE, why, sizeof(why)))
		die("unsupported: %s", why);
	for (int e = 0; emulations[e]; e++) {
		const struct emulation *em = emulations[e];
		struct filter_rule rules_seen[FILTER_MAX_SYSCALLS];

		if (!o.emulate[e])
			continue;
		/* FEAT_AS_TARGET: the capabilities lib/seccomp/as_target.c's helpers use, not the uid */
		if (em->needs != FEAT_COUNT && feature_probe(em->needs, why, sizeof(why)))
			die("--emulate=%s needs %s: %s", em->name, em->needs == FEAT_AS_TARGET ? "root" : "more",
			    why);
		s.emulated[s.nemulated++] = em;
		/* its log line is written from syscall_args.c's table: every call it takes must be there */
		for (int r = 0, n = em->rules(rules_seen); r < n; r++)
			if (!syscall_args_by_nr(rules_seen[r].nr))
				die("--emulate=%s: system call %d is not in syscall_args.c", em->name, rules_seen[r].nr);
	}
	s.log = o.quiet ? NULL : stderr;
	if (o.log_path) {
		s.log = fopen(o.log_path, "we");
		if (!s.log)
			usage_error("cannot write --log=%s: %s", o.log_path, strerror(errno));
	}
	if (s.log)
		setvbuf(s.log, NULL, _IOLBF, 0);	/* whole lines, in order with the command's output */
	s.format = o.format;
	s.nwatched = o.nwatched;
	memcpy(s.watched, o.watched, sizeof(o.watched));

	check_sys(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock), "socketpair");
	/* the main process's wait status, from the keeper that reaps it */
	check_sys(pipe2(status, O_CLOEXEC | O_NONBLOCK), "pipe");
	/*
	 * Should the keeper die before the tree (it is killed with it at the
	 * end of a grace), the orphans come to us, not to init: they stay our
	 * descendants, whose memory Yama's ptrace_scope=1 lets us read, and
	 * ours to reap.
	 */
	check_sys(prctl(PR_SET_CHILD_SUBREAPER, 1), "PR_SET_CHILD_SUBREAPER");
	sigemptyset(&handled);
	sigaddset(&handled, SIGCHLD);
	for (size_t i = 0; i < sizeof(passed_on) / sizeof(passed_on[0]); i++) {
		struct sigaction sa;

		/* ignored when we start (nohup): stays ignored, the command's too, and ends nothing */
		if (sigaction(passed_on[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(&handled, passed_on[i]);
	}
	sigprocmask(SIG_BLOCK, &handled, &old_mask);	/* pending until signalfd reads them */
	s.signal_fd = signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
	check_sys(s.signal_fd, "signalfd");
	s.t0_ns = now_ns();
	/* after feature_probe(), whose child must not be the namespace's init */
	own_ns = keeper_unshare();
	s.keeper = fork();
	check_sys(s.keeper, "fork");
	if (s.keeper == 0) {
		if (own_ns >= 0)
			close(own_ns);
		close(sock[0]);
		close(status[0]);
		close(s.signal_fd);
		keeper_run(&(struct keeper){ .supervisor = self, .own_pidns = own_ns >= 0,
					     .status_fd = status[1], .sock = sock[1] });
		run_child(&o, sock[1], &old_mask);	/* the keeper's child: the command */
	}
	keeper_forked(own_ns);
	close(sock[1]);
	close(status[1]);
	s.status_fd = status[0];
	ignore_signals();
	s.main_pidfd = fd_recv(sock[0]);
	if (s.main_pidfd >= 0)
		s.listener = fd_recv(sock[0]);
	close(sock[0]);
	if (s.listener < 0) {
		/* the command failed before exec and said why; pass its status on */
		if (run_supervise_end(&s, false))
			die("processes of the command would not exit, even on SIGKILL");
		return exit_code(s.child_status);
	}
	ret = run_supervise(&s);
	/* on an error the command cannot go on unsupervised: its trapped calls would fail */
	end = run_supervise_end(&s, ret != 0);
	if (s.log_error)
		die("writing the log to %s: %s; the command was killed", o.log_path ? o.log_path : "stderr",
		    strerror(-s.log_error));
	if (ret)
		die("serving the listener: %s; the command was killed", strerror(-ret));
	if (end)
		die("processes of the command would not exit, even on SIGKILL");
	if (o.summary)
		print_summary(&s, &o, s.log ? s.log : stderr);
	if (s.log && fflush(s.log))
		die("%s: %s", o.log_path ? o.log_path : "stderr", strerror(errno));
	if (s.abandoned)
		die("%lld emulated calls were still acting when the command's last process had gone %d s "
		    "before: their helpers were killed, the log calls them unknown (they may have been done)",
		    (long long)s.abandoned, (int)(RUN_GRACE_NS / 1000000000));
	return exit_code(s.child_status);
}
