// SPDX-License-Identifier: GPL-2.0
/*
 * listener-contention: what one task's SECCOMP_FILTER_FLAG_NEW_LISTENER
 * costs while other, unprivileged, tasks loop a NEW_LISTENER that is
 * refused with EBUSY. The refusal walks every filter the looper's chain
 * was built on, with interrupts off: mainline walks it under the looper's
 * own siglock; the knotif series' ptrace listener (patch 6) added a lock
 * that every attach check takes, and whose scope (the whole system, or
 * one filter tree) decides whether a looper can delay somebody else.
 *
 *   listener/refusal/depth:0     one EBUSY refusal, the listener on the
 *                                filter right below (a walk of one)
 *   listener/refusal/depth:<D>   the same with D more filters on top (a
 *                                walk of D + 1); counter ns_per_filter
 *   listener/new-listener/loopers:0
 *                                a victim's NEW_LISTENER, the other CPU idle
 *   listener/new-listener/busy:<N>
 *                                N tasks loop getppid() on the other CPU,
 *                                with no filter
 *   listener/new-listener/loopers:<N>/depth:0/tree:other
 *                                N loopers refused after a walk of one
 *                                filter: the same work as below but for
 *                                the walk, the baseline of the rows below
 *   listener/victim-refusal/loopers:<N>/depth:<d>/tree:<t>
 *                                the victim is a task of its own on CPU 0
 *                                with a listener, timing NEW_LISTENERs
 *                                refused after a walk of one filter: each
 *                                takes the lock the loopers hold through
 *                                their walks when they share it, so its
 *                                latency shows the wait for the lock alone
 *                                (d = 0 and tree:same is the baseline)
 *   listener/new-listener/loopers:<N>/tree:other
 *                                N loopers, each in a filter tree of its
 *                                own; the victim in another
 *   listener/new-listener/loopers:<N>/tree:same
 *                                the victim and the loopers below one
 *                                filter (no listener) that they share
 *
 * Each victim is a new process (a chain takes one listener), pinned to CPU
 * 0; it reads CLOCK_MONOTONIC around its seccomp() call. The loopers run
 * on CPU 1 (or CPU 0 on a one-CPU machine): with C CPUs at most C - 1
 * walks can be ahead of the victim, whatever N is. Rows carry the latency
 * counters (ns); a row's time is its median, and the table prints the
 * medians over repetitions of p50, p99 and max. A looper whose NEW_LISTENER
 * is not refused with EBUSY, or a victim whose call fails, fails the row.
 *
 * Usage: listener-contention [--samples=N] [--benchmark_repetitions=N]
 *        [--loopers=N] [--depth=D] [--benchmark_out=FILE]
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "flags.h"
#include "gbjson.h"
#include "stats.h"

#define MAX_REPS KBENCH_MAX_REPS
#define MAX_LOOPERS 64	/* the last slot is a victim's (victim-refusal rows) */
/*
 * A chain may hold 32768 BPF instructions (MAX_INSNS_PER_PATH), each
 * filter counting its length after conversion to eBPF + 4: 3,641 filters
 * of one cBPF instruction (measured). The deepest chain here is the shared
 * root, the looper's listener and D.
 */
#define MAX_DEPTH 3639
#define READY_TIMEOUT_MS 300000	/* building a deep chain under TCG is slow */
#define CHILD_TIMEOUT_MS 60000

enum looper_state { LOOPER_BUILDING, LOOPER_READY, LOOPER_FAILED };

/* what the processes of one row share (MAP_SHARED) */
struct shared {
	int stop;			/* loopers: stop looping and exit */
	int state[MAX_LOOPERS];		/* enum looper_state */
	int err[MAX_LOOPERS];		/* errno of a looper's failure */
	char what[MAX_LOOPERS][48];	/* the call that failed */
	long refusals[MAX_LOOPERS];	/* EBUSY refusals counted */
	char why[160];			/* why the row failed */
	int64_t ns[];			/* one per sample */
};

static struct sock_filter allow_insn = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
static struct sock_fprog allow_prog = { .len = 1, .filter = &allow_insn };

static long install(unsigned int flags)
{
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &allow_prog);
}

/* Dies with its parent; false if the parent is gone already. */
static bool bind_to_parent(pid_t parent)
{
	return prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == parent;
}

static __attribute__((noreturn)) void looper_fail(struct shared *sh, int i, const char *what)
{
	sh->err[i] = errno;
	snprintf(sh->what[i], sizeof(sh->what[i]), "%s", what);
	__atomic_store_n(&sh->state[i], LOOPER_FAILED, __ATOMIC_RELEASE);
	_exit(1);
}

/*
 * A looper: a listener on a filter of its own, depth filters on top, then
 * NEW_LISTENER until told to stop, each refused with EBUSY. With timed,
 * it times samples refusals into sh->ns instead, alone, and exits. With
 * busy, it only loops getppid(), under no filter.
 */
static __attribute__((noreturn)) void looper(struct shared *sh, int i, pid_t parent, int cpu,
					     int depth, int timed, bool busy)
{
	if (!bind_to_parent(parent))
		_exit(1);
	if (pin_to(cpu))
		looper_fail(sh, i, "sched_setaffinity");
	if (busy) {
		__atomic_store_n(&sh->state[i], LOOPER_READY, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE))
			syscall(SYS_getppid);
		_exit(0);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		looper_fail(sh, i, "PR_SET_NO_NEW_PRIVS");
	if (install(SECCOMP_FILTER_FLAG_NEW_LISTENER) < 0)	/* kept open until exit */
		looper_fail(sh, i, "the looper's listener");
	for (int d = 0; d < depth; d++)
		if (install(0) < 0)
			looper_fail(sh, i, "a filter of the chain");
	__atomic_store_n(&sh->state[i], LOOPER_READY, __ATOMIC_RELEASE);
	for (long n = 0; timed ? n < timed : !__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE); n++) {
		int64_t t0 = now_ns();
		long r = install(SECCOMP_FILTER_FLAG_NEW_LISTENER);

		if (timed)
			sh->ns[n] = now_ns() - t0;
		if (r >= 0 || errno != EBUSY) {
			if (r >= 0)
				errno = 0;
			looper_fail(sh, i, "NEW_LISTENER (want EBUSY)");
		}
		__atomic_store_n(&sh->refusals[i], n + 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

/*
 * Waits up to timeout_ms for pid; its exit status, or -1 (then the child
 * was killed and reaped: no wait here is unbounded).
 */
static int reap(pid_t pid, int timeout_ms)
{
	int status;

	for (int waited = 0;; waited++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (r < 0 || waited >= timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		poll(NULL, 0, 1);
	}
}

/* One victim: a new process, pinned to CPU 0, timing its NEW_LISTENER. */
static int victim(struct shared *sh, int k)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int64_t t0;
		long fd;

		if (!bind_to_parent(parent) || pin_to(0) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(3);
		t0 = now_ns();
		fd = install(SECCOMP_FILTER_FLAG_NEW_LISTENER);
		sh->ns[k] = now_ns() - t0;
		_exit(fd >= 0 ? 0 : errno == EBUSY ? 4 : 5);
	}
	switch (reap(pid, CHILD_TIMEOUT_MS)) {
	case 0:
		return 0;
	case 4:
		return -EBUSY;
	default:
		return -EIO;
	}
}

struct row_spec {
	const char *kind;	/* "refusal", "new-listener", "victim-refusal" */
	int loopers;		/* new-listener: looping; refusal: 1 */
	int depth;
	bool same_tree;
	bool busy;		/* the loopers only loop getppid() */
};

/* The row's name, which says what its spec holds. */
static void row_name(const struct row_spec *spec, char *name, size_t len)
{
	int n = snprintf(name, len, "listener/%s", spec->kind);

	if (!strcmp(spec->kind, "refusal"))
		snprintf(name + n, len - n, "/depth:%d", spec->depth);
	else if (spec->busy)
		snprintf(name + n, len - n, "/busy:%d", spec->loopers);
	else if (!spec->loopers)
		snprintf(name + n, len - n, "/loopers:0");
	else
		snprintf(name + n, len - n, "/loopers:%d/depth:%d/tree:%s", spec->loopers,
			 spec->depth, spec->same_tree ? "same" : "other");
}

/* A row's repetition, run in a process of its own (a shared root filter stays there). */
static int run_row(const struct row_spec *spec, struct shared *sh, int samples, int cpus,
		   long *refusals, char *why, size_t why_len)
{
	pid_t self = getpid(), pids[MAX_LOOPERS];
	int started = 0, ret = 0;
	int64_t deadline;

	if (spec->same_tree && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || install(0) < 0)) {
		snprintf(why, why_len, "the shared root filter: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < spec->loopers; i++, started++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			snprintf(why, why_len, "fork: %s", strerror(errno));
			ret = -1;
			break;
		}
		if (pids[i] == 0)
			looper(sh, i, self, cpus > 1 ? 1 : 0, spec->depth,
			       !strcmp(spec->kind, "refusal") ? samples : 0, spec->busy);
	}
	deadline = now_ns() + (int64_t)READY_TIMEOUT_MS * 1000000;
	for (int i = 0; !ret && i < started; i++) {
		int st;

		while ((st = __atomic_load_n(&sh->state[i], __ATOMIC_ACQUIRE)) == LOOPER_BUILDING &&
		       now_ns() < deadline)
			poll(NULL, 0, 1);
		if (st != LOOPER_READY) {
			snprintf(why, why_len, "looper %d: %s: %s", i,
				 st == LOOPER_FAILED ? sh->what[i] : "not ready in time",
				 st == LOOPER_FAILED ? strerror(sh->err[i]) : "timeout");
			ret = -1;
		}
	}
	if (!ret && !strcmp(spec->kind, "victim-refusal")) {
		/* the last slot is the victim's: a timed looper of depth 0 on CPU 0 */
		pid_t v = fork();

		if (v == 0)
			looper(sh, MAX_LOOPERS - 1, self, 0, 0, samples, false);
		if (v < 0 || reap(v, READY_TIMEOUT_MS) != 0) {
			snprintf(why, why_len, "the victim: %s: %s",
				 v < 0 ? "fork" : sh->what[MAX_LOOPERS - 1],
				 v < 0 || sh->err[MAX_LOOPERS - 1] ? strerror(v < 0 ? errno :
				 sh->err[MAX_LOOPERS - 1]) : "it failed");
			ret = -1;
		}
	}
	for (int k = 0; !ret && !strcmp(spec->kind, "new-listener") && k < samples; k++) {
		int v = victim(sh, k);

		if (v) {
			snprintf(why, why_len, "victim %d: NEW_LISTENER: %s", k,
				 v == -EBUSY ? "EBUSY" : "failed");
			ret = -1;
		}
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < started; i++) {
		int st = reap(pids[i], CHILD_TIMEOUT_MS);

		if (!ret && (st != 0 || sh->state[i] == LOOPER_FAILED)) {
			snprintf(why, why_len, "looper %d: %s: %s", i,
				 sh->state[i] == LOOPER_FAILED ? sh->what[i] : "exit",
				 sh->state[i] == LOOPER_FAILED ?
				 (sh->err[i] ? strerror(sh->err[i]) : "it succeeded") : "not 0");
			ret = -1;
		}
		*refusals += sh->refusals[i];
	}
	return ret;
}

/*
 * One repetition of a row, in a child: sh->ns holds its samples. Returns 0
 * or -1 with why.
 */
static int measure(const struct row_spec *spec, struct shared *sh, size_t sh_size, int samples,
		   int cpus, struct summary *s, long *refusals, char *why, size_t why_len)
{
	pid_t parent = getpid(), pid;
	int st;

	memset(sh, 0, sh_size);
	pid = fork();
	if (pid < 0) {
		snprintf(why, why_len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		long got = 0;

		if (!bind_to_parent(parent))
			_exit(1);
		if (run_row(spec, sh, samples, cpus, &got, sh->why, sizeof(sh->why)))
			_exit(1);
		sh->refusals[0] = got;
		_exit(0);
	}
	st = reap(pid, READY_TIMEOUT_MS + (samples + MAX_LOOPERS) * CHILD_TIMEOUT_MS);
	if (st != 0) {
		snprintf(why, why_len, "%s", st < 0 ? "timed out" : sh->why);
		return -1;
	}
	*refusals = sh->refusals[0];
	summarize(sh->ns, samples, s);
	return 0;
}

#define NROWS 10
static int opt_loopers = 1, opt_depth = 3600;

static bool own_option(int c, const char *arg)
{
	switch (c) {
	case 'l':
		opt_loopers = (int)cli_int("--loopers", arg, 1, MAX_LOOPERS - 1);
		return true;
	case 'd':
		opt_depth = (int)cli_int("--depth", arg, 1, MAX_DEPTH);
		return true;
	default:
		return false;
	}
}

static const char usage_text[] =
	"Usage: listener-contention [--samples=N] [--benchmark_repetitions=N] [--loopers=N]\n"
	"                           [--depth=D] [--benchmark_out=FILE]\n"
	"A NEW_LISTENER's latency while N tasks loop a NEW_LISTENER refused with EBUSY\n"
	"on a chain of D filters, the loopers in another filter tree or the victim's;\n"
	"and the refusal's own cost at depth 0 and D (defaults: 200 samples,\n"
	"5 repetitions, N = 1, D = 3600).\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		KBENCH_LONGOPTS,
		{ "loopers", required_argument, NULL, 'l' },
		{ "depth", required_argument, NULL, 'd' },
		{ 0 }
	};
	struct kbench_flags f = { .samples = 200, .reps = 5, .out = GB_OUTPUT_DEFAULT };
	struct row_spec rows_spec[NROWS];
	double p50[NROWS][MAX_REPS];
	char names[NROWS][80], why[160] = "";
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), failed = -1;
	json_t *ctx, *rows;
	struct shared *sh;
	size_t sh_size;

	knotif_prog = "listener-contention";
	kbench_setup(&f, argc, argv, opts, usage_text, own_option);
	{
		/* the order of the table; -1 stands for --depth, -2 for --loopers */
		static const struct row_spec table[NROWS] = {
			{ "refusal", 1, 0, false, false },
			{ "refusal", 1, -1, false, false },
			{ "new-listener", 0, 0, false, false },
			{ "new-listener", -2, 0, false, true },
			{ "new-listener", -2, 0, false, false },
			{ "new-listener", -2, -1, false, false },
			{ "new-listener", -2, -1, true, false },
			{ "victim-refusal", -2, 0, true, false },
			{ "victim-refusal", -2, -1, false, false },
			{ "victim-refusal", -2, -1, true, false },
		};

		for (int i = 0; i < NROWS; i++) {
			rows_spec[i] = table[i];
			if (rows_spec[i].depth == -1)
				rows_spec[i].depth = opt_depth;
			if (rows_spec[i].loopers == -2)
				rows_spec[i].loopers = opt_loopers;
			row_name(&rows_spec[i], names[i], sizeof(names[i]));
		}
	}

	sh_size = sizeof(*sh) + (size_t)f.samples * sizeof(sh->ns[0]);
	sh = mmap(NULL, sh_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	ctx = gb_context(argc, argv);
	rows = json_array();
	gb_counter(ctx, "depth", opt_depth);
	gb_counter(ctx, "loopers", opt_loopers);
	gb_counter(ctx, "cpus", cpus);

	/* the rows interleaved, a repetition each in turn: a drift of the machine hits all alike */
	json_t *iters[NROWS][MAX_REPS] = { { NULL } };
	struct summary sums[NROWS][MAX_REPS];

	for (int r = 0; r < f.reps && failed < 0; r++) {
		for (int i = 0; i < NROWS && failed < 0; i++) {
			long refusals = 0;

			if (measure(&rows_spec[i], sh, sh_size, f.samples, cpus, &sums[i][r],
				    &refusals, why, sizeof(why))) {
				failed = i;
				break;
			}
			p50[i][r] = sums[i][r].p50;
			iters[i][r] = gb_iteration(names[i], i, r, f.reps, f.samples, sums[i][r].p50,
						   sums[i][r].p50);
			gb_latency_counters(iters[i][r], &sums[i][r]);
			gb_counter(iters[i][r], "looper_refusals", (double)refusals);
		}
	}
	if (failed >= 0) {
		fprintf(stderr, "listener-contention: %s: %s\n", names[failed], why);
		/* no partial table: the rows measured so far go with the failed one */
		json_array_append_new(rows, gb_error(names[failed], failed, why));
		for (int i = 0; i < NROWS; i++)
			for (int r = 0; r < f.reps; r++)
				json_decref(iters[i][r]);
	} else {
		double walk0 = median_of(p50[0], f.reps), walkd = median_of(p50[1], f.reps);

		for (int i = 0; i < NROWS; i++) {
			double p99[MAX_REPS], max[MAX_REPS];

			for (int r = 0; r < f.reps; r++) {
				p99[r] = sums[i][r].p99;
				max[r] = (double)sums[i][r].max;
				if (i == 1)
					gb_counter(iters[i][r], "ns_per_filter",
						   (p50[1][r] - p50[0][r]) / opt_depth);
				json_array_append_new(rows, iters[i][r]);
			}
			json_array_append_new(rows, gb_aggregate(names[i], i, "median", f.reps,
								 f.samples, median_of(p50[i], f.reps),
								 median_of(p50[i], f.reps)));
			printf("%-44s p50 %9.0f  p99 %9.0f  max %9.0f ns\n", names[i],
			       median_of(p50[i], f.reps), median_of(p99, f.reps),
			       median_of(max, f.reps));
		}
		printf("walk: %.1f ns per filter (%d filters: %.0f ns)\n",
		       (walkd - walk0) / opt_depth, opt_depth, walkd - walk0);
	}
	gb_output_write(&f.out, ctx, rows, NULL, NULL);
	json_decref(ctx);
	json_decref(rows);
	return failed >= 0;
}
