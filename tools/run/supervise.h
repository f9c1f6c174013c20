/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_SUPERVISE_H
#define KNOTIF_RUN_SUPERVISE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "filter.h"
#include "record.h"
#include "syscall_args.h"

struct supervisor {
	/* set by the caller */
	int listener;
	pid_t child;			/* the command's main process (0 once reaped) */
	int child_pidfd;		/* ... as a pidfd: never a reused pid */
	int signal_fd;			/* signalfd: SIGCHLD and the signals passed on (blocked) */
	const struct syscall_args *watched[FILTER_MAX_SYSCALLS];
	int nwatched;
	FILE *log;			/* NULL: --quiet */
	enum log_format format;
	int64_t t0_ns;
	/* filled in by supervise() */
	int64_t count[FILTER_MAX_SYSCALLS];	/* calls seen (and logged) per watched syscall */
	int64_t gone;			/* notifications whose target left before our reply */
	int child_status;		/* the main process's wait status */
	int log_error;			/* -errno of a failed log write (the command is then killed) */
	int64_t kill_at_ns;		/* a signal was passed on to orphans: SIGKILL what is left then */
};

/* After a signal passed to the command's orphans, how long they have to leave before SIGKILL. */
#define SUPERVISE_GRACE_NS (5 * 1000000000LL)

/*
 * Serves the listener until no process carries the filter any more (the
 * listener reports POLLHUP): every call is logged and continued. The
 * command's main process and the orphans reparented to us (the caller is
 * a child subreaper) are reaped on the way. SIGTERM, SIGHUP, SIGUSR1/2 are
 * passed to the main process while it lives, and to every descendant once
 * it is gone (then SIGKILL after SUPERVISE_GRACE_NS). Returns 0 or -errno
 * (a log write error also in log_error).
 */
int supervise(struct supervisor *s);

#endif
