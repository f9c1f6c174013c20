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
	pid_t child;			/* the command's main process */
	int sigchld_fd;			/* signalfd for SIGCHLD (blocked) */
	const struct syscall_args *watched[FILTER_MAX_SYSCALLS];
	int nwatched;
	FILE *log;			/* NULL: --quiet */
	enum log_format format;
	int64_t t0_ns;
	/* filled in by supervise() */
	int64_t count[FILTER_MAX_SYSCALLS];	/* calls seen (and logged) per watched syscall */
	int64_t gone;			/* notifications whose target left before our reply */
	int child_status;		/* the main process's wait status */
};

/*
 * Serves the listener until no process carries the filter any more (the
 * listener reports POLLHUP): every call is logged and continued. The
 * command's main process and the orphans reparented to us (the caller is
 * a child subreaper) are reaped on the way. Returns 0 or -errno.
 */
int supervise(struct supervisor *s);

#endif
