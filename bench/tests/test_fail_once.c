// SPDX-License-Identifier: GPL-2.0
/*
 * bench_fail() from two processes at once, as the target and the supervisor
 * can fail together: the shared message must be one whole reason, never a
 * mix of both (nor empty). Each round releases both from a spin barrier;
 * before the claim was atomic, both passed the "no message yet" check and
 * wrote over each other.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define ROUNDS 20000

struct rendezvous {
	int round;		/* released by the parent */
	int done[2];		/* the round each writer finished */
};

static void wait_for(const int *word, int value)
{
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != value)
		sched_yield();
}

static void writer(struct bench *b, struct rendezvous *rv, int who)
{
	char reason[BENCH_ERROR_LEN];

	memset(reason, who ? 'B' : 'A', sizeof(reason) - 1);
	reason[sizeof(reason) - 1] = '\0';
	for (int r = 1; r <= ROUNDS; r++) {
		wait_for(&rv->round, r);
		bench_fail(b, "%s", reason);
		__atomic_store_n(&rv->done[who], r, __ATOMIC_RELEASE);
	}
	_exit(0);
}

int main(void)
{
	struct bench b = { 0 };
	struct rendezvous *rv;
	int torn = 0, status, failed = 0;
	pid_t pid[2];

	b.shared = mmap(NULL, sizeof(*b.shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	rv = mmap(NULL, sizeof(*rv), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (b.shared == MAP_FAILED || rv == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (int w = 0; w < 2; w++) {
		pid[w] = fork();
		if (pid[w] < 0) {
			perror("fork");
			return 1;
		}
		if (pid[w] == 0)
			writer(&b, rv, w);
	}
	for (int r = 1; r <= ROUNDS; r++) {
		const char *e = b.shared->error;
		size_t len;

		memset(b.shared, 0, sizeof(*b.shared));	/* as harness_run() does per run */
		__atomic_store_n(&rv->round, r, __ATOMIC_RELEASE);
		wait_for(&rv->done[0], r);
		wait_for(&rv->done[1], r);
		len = strlen(e);
		if (len != BENCH_ERROR_LEN - 1 || strspn(e, e[0] == 'A' ? "A" : "B") != len) {
			if (!torn++)
				printf("not ok: round %d: the message is not one whole reason (%zu bytes, '%.20s...')\n",
				       r, len, e);
		}
	}
	for (int w = 0; w < 2; w++)
		if (waitpid(pid[w], &status, 0) != pid[w] || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	if (torn)
		printf("not ok: %d of %d rounds had a torn or missing message\n", torn, ROUNDS);
	if (failed)
		printf("not ok: a writer did not exit cleanly\n");
	if (torn || failed)
		return 1;
	printf("ok: %d rounds of two concurrent failures, each message whole\n", ROUNDS);
	return 0;
}
