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
 *
 * All threads share CPU 0. The waker's CLOCK_THREAD_CPUTIME_ID is read
 * around each call; a row's cpu_time is the mean per call, and the
 * wake-<K> row's counter wake_cost_per_task is (its mean - wake-none's
 * mean) / tasks woken per call: under QEMU -icount, instructions. The
 * number woken is what FUTEX_WAKE returned, so a task not yet asleep is
 * never counted as woken.
 *
 * Usage: wake-cost [--samples=N] [--benchmark_repetitions=N] [--tasks=K]
 *                  [--benchmark_out=FILE]
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "cpu.h"
#include "flags.h"
#include "gbjson.h"
#include "stats.h"

#define MAX_REPS KBENCH_MAX_REPS
#define MAX_TASKS 1024
#define READY_SPINS 1000000	/* sched_yield()s before a round is given up */

static uint32_t gen;		/* the futex word the sleepers wait on */
static uint32_t nobody;		/* a futex word nobody waits on */
static int ready;		/* sleepers about to wait on the current gen */

static long futex(uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static __attribute__((noreturn)) void *sleeper(void *arg)
{
	(void)arg;
	for (;;) {	/* until main returns: exit_group ends every sleeper */
		uint32_t g = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);

		__atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
		/* EAGAIN when gen moved on before we slept: look again */
		futex(&gen, FUTEX_WAIT_PRIVATE, g);
	}
}

/* Until every sleeper is about to wait; -ETIMEDOUT if they never are. */
static int await_sleepers(int tasks)
{
	for (long i = 0; i < READY_SPINS; i++) {
		if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) >= tasks)
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

/* samples calls; *cpu: mean waker ns per call, *woken: mean tasks woken per call */
static int measure(int tasks, int samples, double *cpu, double *woken)
{
	int64_t sum = 0;
	long n = 0;

	for (int i = 0; i < samples; i++) {
		if (tasks && await_sleepers(tasks))
			return -ETIMEDOUT;
		sum += one_wake(tasks, &n);
	}
	*cpu = (double)sum / samples;
	*woken = (double)n / samples;
	return 0;
}

static void add_rows(json_t *rows, int family, const char *name, int reps, int samples,
		     const double *cpu, const double *woken, double none_ns)
{
	for (int r = 0; r < reps; r++) {
		json_t *row = gb_iteration(name, family, r, reps, samples, cpu[r], cpu[r]);

		if (woken) {
			gb_counter(row, "tasks_woken_per_call", woken[r]);
			gb_counter(row, "wake_cost_per_task", woken[r] ? (cpu[r] - none_ns) / woken[r] : 0);
		}
		json_array_append_new(rows, row);
	}
	json_array_append_new(rows, gb_aggregate(name, family, "median", reps, samples,
						 median_of(cpu, reps), median_of(cpu, reps)));
}

static const char usage_text[] =
	"Usage: wake-cost [--samples=N] [--benchmark_repetitions=N] [--tasks=K] [--benchmark_out=FILE]\n"
	"What waking one sleeping task costs the waker: FUTEX_WAKE of K sleepers in one\n"
	"call against FUTEX_WAKE of none (defaults: 200 calls, 5 repetitions, K = 64).\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		KBENCH_LONGOPTS,
		{ "tasks", required_argument, NULL, 't' },
		{ 0 }
	};
	double none[MAX_REPS], cpu[MAX_REPS], woken[MAX_REPS];
	int samples, reps, tasks = 64, opt, ret, err = 0;
	struct kbench_flags f = { .samples = 200, .reps = 5, .out = GB_OUTPUT_DEFAULT };
	pthread_t threads[MAX_TASKS];
	char name[64];
	json_t *ctx, *rows;

	knotif_prog = "wake-cost";
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hV", opts, NULL)) != -1) {
		if (kbench_flag(&f, opt, optarg))
			continue;
		switch (opt) {
		case 't':
			tasks = (int)cli_int("--tasks", optarg, 1, MAX_TASKS);
			break;
		default:
			cli_other_option(opt, usage_text, argv);
		}
	}
	kbench_flags_done(&f, argc, argv);	/* a path we cannot write is exit 2 now, not a lost run */
	samples = f.samples;
	reps = f.reps;
	if (pin_to(0))
		fprintf(stderr, "wake-cost: warning: cannot pin to CPU 0\n");
	for (int i = 0; i < tasks; i++) {
		ret = pthread_create(&threads[i], NULL, sleeper, NULL);
		if (ret) {
			fprintf(stderr, "wake-cost: pthread_create: %s\n", strerror(ret));
			return 1;	/* the threads made so far die with the process */
		}
	}
	ctx = gb_context(argc, argv);
	rows = json_array();
	snprintf(name, sizeof(name), "futex/wake-%d/placement:same", tasks);
	/* the two rows interleaved, a repetition each in turn: the subtraction pairs like with like */
	ret = 0;
	for (int r = 0; r < reps && !ret; r++)
		ret = measure(0, samples, &none[r], &woken[r]) ?: measure(tasks, samples, &cpu[r], &woken[r]);
	if (ret) {
		fprintf(stderr, "wake-cost: the sleepers never all went to sleep\n");
		json_array_append_new(rows, gb_error(name, 1, "the sleepers never all went to sleep"));
		err = 1;
	} else {
		double none_ns = median_of(none, reps);

		add_rows(rows, 0, "futex/wake-none/placement:same", reps, samples, none, NULL, 0);
		add_rows(rows, 1, name, reps, samples, cpu, woken, none_ns);
		printf("%-36s %10.0f ns per call\n", "futex/wake-none/placement:same", none_ns);
		printf("%-36s %10.0f ns per call, %.1f woken per call: %.0f ns per task woken\n", name,
		       median_of(cpu, reps), median_of(woken, reps),
		       (median_of(cpu, reps) - none_ns) / median_of(woken, reps));
	}
	gb_output_write(&f.out, ctx, rows, NULL, NULL);	/* the table is out already */
	json_decref(ctx);
	json_decref(rows);
	return err;
}
