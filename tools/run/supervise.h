/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_SUPERVISE_H
#define KNOTIF_RUN_SUPERVISE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "emulation.h"
#include "filter.h"
#include "record.h"
#include "syscall_args.h"

struct run_supervisor {
	/* set by the caller */
	int listener;
	pid_t keeper;			/* our child, the command's parent (0 once reaped) */
	int main_pidfd;			/* the command's main process */
	int status_fd;			/* its wait status, written by the keeper once it has reaped it */
	int signal_fd;			/* signalfd: SIGCHLD and the signals passed on (blocked) */
	const struct syscall_args *watched[FILTER_MAX_SYSCALLS];
	int nwatched;
	FILE *log;			/* NULL: --quiet */
	enum log_format format;
	int64_t t0_ns;
	/* --emulate: the calls answered here (the others continue), configured */
	const struct emulation *emulated[EMULATIONS_MAX];
	int nemulated;
	/* filled in by run_supervise() and run_supervise_end() */
	int64_t count[FILTER_MAX_SYSCALLS];	/* calls seen (and logged) per watched syscall */
	int64_t gone;			/* notifications whose target left before our reply */
	int64_t abandoned;		/* emulated acts still running when the run ended (logged "unknown") */
	int64_t verdicts[EMULATIONS_MAX][EMULATED_VERDICTS];	/* emulated calls of emulated[i] per verdict */
	int keeper_status;		/* the keeper's wait status */
	int child_status;		/* the main process's wait status (run_supervise_end()) */
	int log_error;			/* -errno of a failed log write (the command is then killed) */
	int64_t kill_at_ns;		/* SIGTERM or SIGHUP was passed on: SIGKILL the tree then */
};

/*
 * After SIGTERM or SIGHUP passed on (to the main process or, once it has
 * exited, to the rest of the tree), how long the tree has to leave before
 * SIGKILL: a command that blocks or ignores them cannot keep us waiting.
 */
#define RUN_GRACE_NS (5 * 1000000000LL)

/*
 * Serves the listener until no process carries the filter any more (the
 * listener reports POLLHUP): every call is logged and continued, but for
 * the calls an --emulate emulation answers (emulation.h). SIGTERM,
 * SIGHUP, SIGUSR1/2 are passed to the main process while it runs, and to
 * every descendant once it has exited; SIGTERM and SIGHUP start the grace
 * (RUN_GRACE_NS), then the tree is killed. Returns 0 or -errno (a
 * log write error also in log_error); the caller then calls run_supervise_end().
 */
int run_supervise(struct run_supervisor *s);

/*
 * Ends the run: waits until we have no child left (waitpid() says ECHILD),
 * so that no process of the command's tree exists any more, then takes the
 * main process's status (child_status). kill_first: SIGKILL the tree first.
 * Bounded: a tree still there after RUN_GRACE_NS is killed, and after
 * as long again we give up with -EBUSY (processes stuck in the kernel).
 */
int run_supervise_end(struct run_supervisor *s, bool kill_first);

#endif
