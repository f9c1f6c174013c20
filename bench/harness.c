// SPDX-License-Identifier: GPL-2.0
#include "harness.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "counters.h"
#include "first_failure.h"
#include "pdeath.h"
#include "sysinfo.h"

/* The first failure wins, whichever of the three processes sharing the mapping says it first. */
int bench_fail(struct bench *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	first_failure_v(&b->shared->fail_claimed, b->shared->error, sizeof(b->shared->error), fmt, ap);
	va_end(ap);
	return -EPROTO;
}

void bench_steps_add(struct bench *b, const int64_t *at, int nsteps)
{
	struct bench_shared *sh = b->shared;

	for (int i = 0; i <= nsteps; i++)
		if (!at[i] || (i && at[i] < at[i - 1]))
			return;
	for (int i = 0; i < nsteps && i < BENCH_MAX_STEPS; i++)
		sh->step_total_ns[i] += at[i + 1] - at[i];
	sh->step_total_calls++;
}

/* Its only job is to run: a handler without SA_RESTART makes blocked calls return EINTR. */
static void on_sigchld(int sig)
{
}

void watch_target_exit(void)
{
	struct sigaction sa = { .sa_handler = on_sigchld };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
}

bool target_exited(const struct bench *b)
{
	siginfo_t si = { 0 };

	/* WNOWAIT: the harness still reaps it and reports how it ended */
	if (waitid(P_PID, (id_t)b->target_pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD;
	return si.si_pid != 0;
}

void harness_target_reaped(struct bench *b, int status)
{
	b->target_reaped = true;
	b->target_status = status;
}

/*
 * Page faults must not land in the tail (needs CAP_IPC_LOCK or
 * RLIMIT_MEMLOCK): true when this process's memory is locked. ONFAULT:
 * the sample area can be far larger than the run uses; the part it uses
 * is touched before timing instead.
 */
static bool lock_memory(void)
{
	return mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == 0 && sysinfo_locked_kb() > 0;
}

/* Cost of the timing itself: a back-to-back pair of clock reads. */
int64_t timer_overhead(void)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < 1000; i++) {
		int64_t t0 = now_ns(), t1 = now_ns();

		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best;
}

static int64_t warm_up(struct bench *b)
{
	int64_t n = b->samples_per_rep / 10, t0;

	if (n < 200)
		n = 200;
	t0 = now_ns();
	for (int64_t i = 0; i < n; i++)
		if (b->m->check(b, b->m->call(b)))
			return -1;
	b->shared->warmup = n;
	return (now_ns() - t0) / n;
}

/*
 * vm-profile's window (kernel/profile/tbcount.c): with KNOTIF_PROFILE_MARKS=1,
 * the target runs `xchg %bx,%bx` before a benchmark's timed loop and
 * `xchg %cx,%cx` after it (not the floor's): instructions that change
 * nothing, which QEMU's plugin knows by their bytes and counts between.
 */
static bool profile_marks(const struct bench *b)
{
	static int enabled = -1;

	if (enabled < 0) {
		const char *v = getenv("KNOTIF_PROFILE_MARKS");

		enabled = v && !strcmp(v, "1");
	}
	return enabled && b->m->kind != KIND_FLOOR;
}

static inline void profile_mark(bool start)
{
#if defined(__x86_64__) || defined(__i386__)
	if (start)
		__asm__ volatile("xchg %%bx, %%bx" ::: "memory");
	else
		__asm__ volatile("xchg %%cx, %%cx" ::: "memory");
#else
	(void)start;
#endif
}

/* The timed loop. Nothing but the call and the clock sits between t0 and t1. */
static int time_rep(struct bench *b, struct counters *c, int rep, int64_t n)
{
	int64_t *samples = b->shared->samples + rep * b->per_rep_cap;
	struct rep_result *r = &b->shared->rep[rep];
	struct counters_value v;
	bool marks = profile_marks(b);
	int64_t cpu0, wall0;

	/* the supervisor's steps so far: its totals move only while a call waits on it */
	for (int k = 0; k < BENCH_MAX_STEPS; k++)
		r->step_ns[k] = b->shared->step_total_ns[k];
	r->step_calls = b->shared->step_total_calls;
	counters_start(c);
	cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	wall0 = now_ns();
	if (marks)
		profile_mark(true);
	for (int64_t i = 0; i < n; i++) {
		int64_t t0 = now_ns();
		long ret = b->m->call(b);
		int64_t t1 = now_ns();

		samples[i] = t1 - t0;
		if (b->m->check(b, ret)) {
			if (marks)
				profile_mark(false);
			return -EPROTO;
		}
	}
	if (marks)
		profile_mark(false);
	r->wall_ns = now_ns() - wall0;
	r->cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	counters_stop(c, &v);
	r->iterations = n;
	r->ctx_switches = v.ctx_switches;
	r->preemptions = v.preemptions;
	r->migrations = v.migrations;
	r->sup_cpu_ns = v.sup_cpu_ns;
	for (int k = 0; k < BENCH_MAX_STEPS; k++)
		r->step_ns[k] = b->shared->step_total_ns[k] - r->step_ns[k];
	r->step_calls = b->shared->step_total_calls - r->step_calls;
	return 0;
}

static __attribute__((noreturn)) void target_main(struct bench *b)
{
	struct counters c;
	int64_t per_rep, warm_ns;
	int ret;

	if (pdeath_follow(b->sup_pid, SIGKILL))
		_exit(1);	/* the supervisor died before we could arm the death signal */
	b->target_pid = getpid();
	ret = pin_to(b->cpus[0]);
	if (ret) {
		bench_fail(b, "pinning the target to CPU %d: %s", b->cpus[0], strerror(-ret));
		_exit(1);
	}
	b->shared->target_mlocked = lock_memory();
	errno = 0;
	b->real_value = syscall(b->sys->nr);
	counters_open(&c, (enum counters_source)b->counters_wanted, b->sup_pid);
	b->shared->counters_source = c.source;
	b->shared->timer_ns = timer_overhead();

	ret = b->m->target_setup ? b->m->target_setup(b) : 0;
	if (ret) {
		bench_fail(b, "target setup: %s", strerror(-ret));
		_exit(1);
	}
	warm_ns = warm_up(b);
	if (warm_ns < 0)
		_exit(1);
	per_rep = b->samples_per_rep;
	if (b->min_time_s > 0 && warm_ns > 0 && b->min_time_s * 1e9 / (double)warm_ns > (double)per_rep)
		per_rep = (int64_t)(b->min_time_s * 1e9 / (double)warm_ns);
	if (per_rep > b->per_rep_cap)
		per_rep = b->per_rep_cap;
	for (int r = 0; r < b->reps; r++)
		memset(b->shared->samples + r * b->per_rep_cap, 0, (size_t)per_rep * sizeof(int64_t));
	for (int r = 0; r < b->reps; r++) {
		if (time_rep(b, &c, r, per_rep))
			_exit(1);
		__atomic_store_n(&b->shared->progress_ns, now_ns(), __ATOMIC_RELEASE);
		b->shared->reps_done = r + 1;
	}
	if (b->m->target_finish)
		b->m->target_finish(b);
	counters_close(&c);
	_exit(0);
}

static int describe_status(struct bench *b, const char *who, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		return bench_fail(b, "%s killed by signal %d (%s)", who, WTERMSIG(status),
				  strsignal(WTERMSIG(status)));
	return bench_fail(b, "%s exited with status %d", who, WEXITSTATUS(status));
}

static __attribute__((noreturn)) void harness_supervisor_main(struct bench *b, pid_t parent)
{
	int ret, status;
	pid_t pid;

	/* the harness killed between fork() and here sends no signal: re-checked */
	if (pdeath_follow(parent, SIGKILL))
		_exit(1);
	b->sup_pid = getpid();
	ret = pin_to(b->cpus[1]);
	if (ret) {
		bench_fail(b, "pinning the supervisor to CPU %d: %s", b->cpus[1], strerror(-ret));
		_exit(1);
	}
	/* the supervisor's page faults delay the reply, so they reach the tail too */
	b->shared->sup_mlocked = lock_memory();
	/* freed by _exit: the target gets a copy with the fork */
	b->state = b->m->state_size ? calloc(1, b->m->state_size) : NULL;
	if (b->m->state_size && !b->state) {
		bench_fail(b, "supervisor setup: %s", strerror(ENOMEM));
		_exit(1);
	}
	ret = b->m->sup_prepare ? b->m->sup_prepare(b) : 0;
	if (ret) {
		bench_fail(b, "supervisor setup: %s", strerror(-ret));
		_exit(1);
	}
	pid = fork();
	if (pid < 0) {
		bench_fail(b, "fork: %s", strerror(errno));
		_exit(1);
	}
	if (pid == 0)
		target_main(b);
	b->target_pid = pid;
	ret = b->m->supervise ? b->m->supervise(b) : 0;
	if (ret) {
		bench_fail(b, "supervisor: %s", strerror(-ret));
		kill(pid, SIGKILL);
	}
	if (!b->target_reaped) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	} else {
		status = b->target_status;
	}
	if (describe_status(b, "target", status))
		ret = -EPROTO;
	_exit(ret ? 1 : 0);
}

int harness_run(struct bench *b, int timeout_s)
{
	struct pollfd pfd;
	int status, ret;
	pid_t pid, harness = getpid();

	memset(b->shared, 0, sizeof(*b->shared));
	b->shared->progress_ns = now_ns();	/* the first repetition's clock starts now, warm-up included */
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		bench_fail(b, "fork: %s", strerror(-ret));
		return ret;
	}
	if (pid == 0)
		harness_supervisor_main(b, harness);

	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	pfd.events = POLLIN;
	if (pfd.fd < 0) {
		ret = -errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return bench_fail(b, "pidfd_open (Linux 5.3) is needed to bound the run: %s", strerror(-ret));
	}
	/*
	 * A hang is timeout_s with no repetition finished, not timeout_s in
	 * all: a method of milliseconds a call (agent/mknod-exec) takes
	 * minutes over 5 x 5,000 samples, and each repetition is progress.
	 */
	for (;;) {
		/* asleep until the target's last progress + timeout_s: no wake-up while it measures */
		int64_t deadline = __atomic_load_n(&b->shared->progress_ns, __ATOMIC_ACQUIRE) +
				   (int64_t)timeout_s * NSEC_PER_SEC;
		int64_t left_ms = (deadline - now_ns()) / 1000000;

		if (left_ms <= 0) {
			ret = 0;
			break;
		}
		ret = poll(&pfd, 1, left_ms > INT_MAX ? INT_MAX : (int)left_ms);
		if ((ret < 0 && errno == EINTR) || ret == 0)
			continue;	/* a timeout re-reads the progress the target made meanwhile */
		break;
	}
	close(pfd.fd);
	if (ret == 0) {
		/*
		 * The reason first: the first failure wins, and the kill closes the
		 * listener, so the target's blocked call then returns ENOSYS and the
		 * target would report that instead (seen on a new machine).
		 */
		bench_fail(b, "timed out: no repetition finished in %d s (a hang in the method; see --timeout)",
			   timeout_s);
		kill(pid, SIGKILL);	/* the target follows: PR_SET_PDEATHSIG */
		waitpid(pid, NULL, 0);
		return -ETIMEDOUT;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return describe_status(b, "supervisor", status);
}
