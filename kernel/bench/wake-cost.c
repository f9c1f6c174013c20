// SPDX-License-Identifier: GPL-2.0
/*
 * wake-cost: what waking one sleeping task costs the waker, on this kernel,
 * apart from any seccomp code. vm-bench's hot-path table sets it beside
 * the batched write() of the knotif series: every reply in a batch still
 * wakes its target (try_to_wake_up), and no batching of system calls
 * removes that, so it bounds what a batch can save.
 *
 *   futex/wake-none/placement:same   FUTEX_WAKE with no waiter
 *   futex/wake-<K>/placement:same    FUTEX_WAKE of K tasks asleep on one
 *                                    word, in one call (as one write()
 *                                    answers K notifications)
 *   futex/requeue-none/placement:same    FUTEX_CMP_REQUEUE with no waiter
 *   futex/requeue-<K>/placement:same FUTEX_CMP_REQUEUE of the K sleepers to
 *                                    another word, waking none
 *
 * All threads share CPU 0. The waker's CLOCK_THREAD_CPUTIME_ID is read
 * around each call; a row's cpu_time is the mean per call, and the
 * wake-<K> row's counter wake_cost_per_task is (its mean - wake-none's
 * mean) / tasks woken per call: under QEMU -icount, instructions. The
 * number woken is what FUTEX_WAKE returned, so a task not yet asleep is
 * never counted as woken. A call is made once every sleeper has counted
 * itself ready and its /proc stat says it sleeps; one that still found
 * fewer than K in the queue is made again (counter calls_retaken).
 *
 * That figure holds the futex queue's work as well as try_to_wake_up().
 * A requeue walks the same queue and unlinks the same waiters without
 * waking any, so requeue-<K>'s requeue_cost_per_task (less requeue-none,
 * per task moved) is the queue's share; wake less requeue is what the
 * wake-up itself costs, which seccomp's complete() pays too.
 *
 * Usage: wake-cost [--samples=N] [--benchmark_repetitions=N] [--tasks=K]
 *                  [--benchmark_out=FILE]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "flags.h"
#include "gbjson.h"
#include "stats.h"

#define MAX_REPS KBENCH_MAX_REPS
#define MAX_TASKS 1024
#define READY_SPINS 1000000	/* sched_yield()s before a round is given up */
#define MAX_RETAKES 100		/* calls in a row that found a sleeper not yet asleep */

static uint32_t gen;		/* the futex word the sleepers wait on */
static uint32_t nobody;		/* a futex word nobody waits on */
static uint32_t parked;		/* where a requeue moves the sleepers */
static int ready;		/* sleepers about to wait on the current gen */
/* each sleeper's /proc/self/task/TID/stat; -2 before it opened it, -1 if it could not */
static int stat_fd[MAX_TASKS];

static long futex(uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static __attribute__((noreturn)) void *sleeper(void *arg)
{
	int *fd = arg;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", (long)syscall(SYS_gettid));
	__atomic_store_n(fd, open(path, O_RDONLY | O_CLOEXEC), __ATOMIC_RELEASE);
	for (;;) {	/* until main returns: exit_group ends every sleeper */
		uint32_t g = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);

		__atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
		/* EAGAIN when gen moved on before we slept: look again */
		futex(&gen, FUTEX_WAIT_PRIVATE, g);
	}
}

/*
 * Whether a sleeper is asleep (state S: it sleeps nowhere but in FUTEX_WAIT),
 * not only counted ready: between the two it may be preempted. Without its
 * stat file, say yes; measure() still retakes a call that found it awake.
 */
static bool asleep(int fd)
{
	char buf[256], *end;
	ssize_t n;

	if (fd == -2)
		return false;
	if (fd < 0)
		return true;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	end = strrchr(buf, ')');	/* the name in parentheses may hold anything */
	return !end || end[1] != ' ' || end[2] == 'S';
}

/* Until every sleeper is asleep on gen; -ETIMEDOUT if they never are. */
static int await_sleepers(int tasks)
{
	for (long i = 0; i < READY_SPINS; i++) {
		int k = 0;

		if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) >= tasks)
			while (k < tasks && asleep(__atomic_load_n(&stat_fd[k], __ATOMIC_ACQUIRE)))
				k++;
		if (k == tasks)
			return 0;
		sched_yield();
	}
	return -ETIMEDOUT;
}

/*
 * One call: with tasks > 0, all sleepers are woken and *woken says how many
 * were asleep; with 0, FUTEX_WAKE finds nobody. Returns the waker's CPU ns.
 */
static int64_t one_wake(int tasks, long *woken)
{
	int64_t t0, t1;
	long n;

	if (tasks) {
		__atomic_store_n(&ready, 0, __ATOMIC_RELEASE);
		__atomic_add_fetch(&gen, 1, __ATOMIC_ACQ_REL);
	}
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	n = futex(tasks ? &gen : &nobody, FUTEX_WAKE_PRIVATE, INT_MAX);
	t1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	*woken += n > 0 ? n : 0;
	return t1 - t0;
}

/*
 * One call: with tasks > 0, all sleepers move from gen to parked, none woken,
 * and *moved says how many; then, untimed, they are woken from there to
 * sleep on gen again. With 0, the requeue finds nobody. Returns the
 * caller's CPU ns of the requeue alone.
 */
static int64_t one_requeue(int tasks, long *moved)
{
	uint32_t *from = tasks ? &gen : &nobody;
	uint32_t expect = __atomic_load_n(from, __ATOMIC_ACQUIRE);
	int64_t t0, t1;
	long n;

	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	n = syscall(SYS_futex, from, FUTEX_CMP_REQUEUE_PRIVATE, 0, (void *)(long)INT_MAX,
		    &parked, expect);
	t1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	*moved += n > 0 ? n : 0;
	if (tasks) {
		__atomic_store_n(&ready, 0, __ATOMIC_RELEASE);
		__atomic_add_fetch(&gen, 1, __ATOMIC_ACQ_REL);
		futex(&parked, FUTEX_WAKE_PRIVATE, INT_MAX);
		/*
		 * A sleeper preempted between counting itself ready and its
		 * FUTEX_WAIT missed the requeue and may sleep on gen now: wake
		 * it too, or the next round would wait for it forever.
		 */
		futex(&gen, FUTEX_WAKE_PRIVATE, INT_MAX);
	}
	return t1 - t0;
}

/*
 * samples calls of one_wake (or one_requeue) that each found all the tasks
 * asleep; *cpu: mean ns per call, *tasks_per_call: mean tasks woken (or
 * moved) per call, *retaken: calls made again because a sleeper had counted
 * itself ready but was preempted before its FUTEX_WAIT. Such a call found
 * fewer than tasks in the queue: it is not a call on K sleepers. -EAGAIN
 * after MAX_RETAKES of them in a row.
 */
static int measure(int64_t (*call)(int, long *), int tasks, int samples, double *cpu,
		   double *tasks_per_call, double *retaken)
{
	int64_t sum = 0;
	long n = 0, again = 0;

	for (int i = 0; i < samples; i++) {
		int tries = 0;
		int64_t ns;
		long got;

		do {
			if (tasks && await_sleepers(tasks))
				return -ETIMEDOUT;
			got = 0;
			ns = call(tasks, &got);
		} while (got < tasks && ++tries < MAX_RETAKES);
		if (got < tasks)
			return -EAGAIN;
		again += tries;
		sum += ns;
		n += got;
	}
	*cpu = (double)sum / samples;
	*tasks_per_call = (double)n / samples;
	*retaken = (double)again;
	return 0;
}

/* what a row counts: tasks woken or moved per call, and the cost per task over the empty call */
struct per_task {
	const char *count, *cost;
};

static const struct per_task woken_counters = { "tasks_woken_per_call", "wake_cost_per_task" };
static const struct per_task moved_counters = { "tasks_moved_per_call", "requeue_cost_per_task" };

static void add_rows(json_t *rows, int family, const char *name, int reps, int samples,
		     const double *cpu, const struct per_task *counters, const double *tasks,
		     const double *retaken, double none_ns)
{
	for (int r = 0; r < reps; r++) {
		json_t *row = gb_iteration(name, family, r, reps, samples, cpu[r], cpu[r]);

		if (counters) {
			gb_counter(row, counters->count, tasks[r]);
			gb_counter(row, counters->cost, tasks[r] ? (cpu[r] - none_ns) / tasks[r] : 0);
			gb_counter(row, "calls_retaken", retaken[r]);
		}
		json_array_append_new(rows, row);
	}
	json_array_append_new(rows, gb_aggregate(name, family, "median", reps, samples,
						 median_of(cpu, reps), median_of(cpu, reps)));
}

static const char usage_text[] =
	"Usage: wake-cost [--samples=N] [--benchmark_repetitions=N] [--tasks=K] [--benchmark_out=FILE]\n"
	"What waking one sleeping task costs the waker: FUTEX_WAKE of K sleepers in one\n"
	"call against FUTEX_WAKE of none, and FUTEX_CMP_REQUEUE of the K against none, the\n"
	"futex queue's share (defaults: 200 calls, 5 repetitions, K = 64).\n";

/* one pair of rows: a call with nobody waiting, and the same call on the K sleepers */
struct pair {
	const char *verb;			/* "wake", "requeue" */
	int64_t (*call)(int tasks, long *n);
	const struct per_task *counters;
	double none[MAX_REPS], cpu[MAX_REPS], per_call[MAX_REPS], retaken[MAX_REPS];
};

/* the pair's two rows, as families first and first + 1; prints its line */
static void add_pair(json_t *rows, int first, const struct pair *p, int tasks, int reps,
		     int samples)
{
	double none_ns = median_of(p->none, reps), cpu = median_of(p->cpu, reps);
	double per_call = median_of(p->per_call, reps);
	char name[64];

	snprintf(name, sizeof(name), "futex/%s-none/placement:same", p->verb);
	add_rows(rows, first, name, reps, samples, p->none, NULL, NULL, NULL, 0);
	printf("%-36s %10.0f ns per call\n", name, none_ns);
	snprintf(name, sizeof(name), "futex/%s-%d/placement:same", p->verb, tasks);
	add_rows(rows, first + 1, name, reps, samples, p->cpu, p->counters, p->per_call, p->retaken,
		 none_ns);
	printf("%-36s %10.0f ns per call, %.1f a call: %.0f ns per task\n", name, cpu, per_call,
	       per_call ? (cpu - none_ns) / per_call : 0);
}

static int opt_tasks = 64;	/* --tasks */

static bool own_option(int c, const char *arg)
{
	if (c != 't')
		return false;
	opt_tasks = (int)cli_int("--tasks", arg, 1, MAX_TASKS);
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		KBENCH_LONGOPTS,
		{ "tasks", required_argument, NULL, 't' },
		{ 0 }
	};
	static struct pair pairs[] = {
		{ .verb = "wake", .call = one_wake, .counters = &woken_counters },
		{ .verb = "requeue", .call = one_requeue, .counters = &moved_counters },
	};
	int samples, reps, tasks, ret, err = 0;
	struct kbench_flags f = { .samples = 200, .reps = 5, .out = GB_OUTPUT_DEFAULT };
	pthread_t threads[MAX_TASKS];
	json_t *ctx, *rows;

	knotif_prog = "wake-cost";
	kbench_setup(&f, argc, argv, opts, usage_text, own_option);
	samples = f.samples;
	reps = f.reps;
	tasks = opt_tasks;
	for (int i = 0; i < tasks; i++) {
		stat_fd[i] = -2;
		ret = pthread_create(&threads[i], NULL, sleeper, &stat_fd[i]);
		if (ret) {
			fprintf(stderr, "wake-cost: pthread_create: %s\n", strerror(ret));
			return 1;	/* the threads made so far die with the process */
		}
	}
	ctx = gb_context(argc, argv);
	rows = json_array();
	/* the four rows interleaved, a repetition each in turn: the subtractions pair like with like */
	ret = 0;
	for (int r = 0; r < reps && !ret; r++) {
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]) && !ret; i++) {
			struct pair *p = &pairs[i];

			ret = measure(p->call, 0, samples, &p->none[r], &p->per_call[r], &p->retaken[r]) ?:
			      measure(p->call, tasks, samples, &p->cpu[r], &p->per_call[r], &p->retaken[r]);
		}
	}
	if (ret) {
		char why[96] = "the sleepers never all went to sleep";

		if (ret == -EAGAIN)
			snprintf(why, sizeof(why), "a sleeper was still awake at the call, %d calls in a row",
				 MAX_RETAKES);

		fprintf(stderr, "wake-cost: %s\n", why);
		json_array_append_new(rows, gb_error("futex/wake/placement:same", 1, why));
		err = 1;
	} else {
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
			add_pair(rows, 2 * (int)i, &pairs[i], tasks, reps, samples);
	}
	gb_output_write(&f.out, ctx, rows, NULL, NULL);	/* the table is out already */
	json_decref(ctx);
	json_decref(rows);
	return err;
}
