// SPDX-License-Identifier: GPL-2.0
/*
 * thread-exec PROG [ARG...]: runs PROG by execve() from a thread other than
 * the leader, which makes the execing thread take the leader's pid. That is
 * the one way a task's pid changes under knotif-trace, whose task state sits
 * at the thread id (its sched_process_exec probe moves it): a tracer that
 * lost it would not follow PROG, nor what PROG forks.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

static char **prog;

static void *run(void *unused)
{
	(void)unused;
	execvp(prog[0], prog);
	fprintf(stderr, "thread-exec: cannot run %s: %s\n", prog[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	pthread_t t;
	int err;

	if (argc < 2) {
		fprintf(stderr, "thread-exec: usage: thread-exec PROG [ARG...]\n");
		return 2;
	}
	prog = argv + 1;
	err = pthread_create(&t, NULL, run, NULL);
	if (err) {
		fprintf(stderr, "thread-exec: pthread_create: %s\n", strerror(err));
		return 1;
	}
	pthread_join(t, NULL);	/* never returns: the exec ends this thread with the process */
	return 1;
}
