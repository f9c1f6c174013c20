/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_RECORD_H
#define KNOTIF_RUN_RECORD_H

#include <limits.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "syscall_args.h"

/* execve's argv: entries and bytes we read before writing "..." */
#define RECORD_ARGV_MAX 32
#define RECORD_ARENA (3 * PATH_MAX + 8192)

/*
 * One intercepted call, with what its pointer arguments held. Taking a
 * record (reading the target's memory) must happen before the CONTINUE
 * reply lets the target run on and change it.
 */
struct record {
	int64_t t_ns;		/* since knotif-run started */
	pid_t pid;
	const struct syscall_args *sc;
	uint64_t raw[SYSCALL_MAX_ARGS];
	struct {
		const char *str;	/* PATH: what it held; NULL if not read */
		int truncated;
		int argc;		/* ARGV */
		const char *argv[RECORD_ARGV_MAX];
	} arg[SYSCALL_MAX_ARGS];
	/* the SOCKADDR argument as read (sa_len 0: not read); rendered, escaped, by the writers */
	struct sockaddr_storage sa;
	size_t sa_len;
	/* an emulated call's outcome (--emulate); verdict NULL: a call let continue */
	const char *verdict;	/* "created", "refused", "failed" */
	int error;		/* what the call returned: 0 or this errno */
	const char *why;	/* why it failed, or "" */
	size_t used;
	char arena[RECORD_ARENA];
};

enum log_format { LOG_TEXT, LOG_JSON };

/*
 * Fills r from a notification. Pointer arguments are read through
 * /proc/PID/mem; one that cannot be read stays a bare address. Returns 0,
 * -ENOENT when the notification went away (the target died or was
 * interrupted), or another -errno.
 */
int record_take(struct record *r, int listener, const struct seccomp_notif *req,
		const struct syscall_args *sc, int64_t t_ns);

/*
 * Fills r from a notification whose string arguments were already read
 * (the copies an emulating supervisor acted on: the log shows what was
 * done, not a second read of memory the target may have changed since):
 * strs[k] is the k-th string argument, NULL for one not read.
 */
void record_from_strings(struct record *r, const struct seccomp_notif *req, const struct syscall_args *sc,
			 const char *const *strs, int n, int64_t t_ns);

/*
 * One line: strace-like text, or a JSON object. Strings come from the
 * target and are hostile: text escapes them as C does (\" \\ \n \t \xNN),
 * so one call is always one line; JSON writes valid UTF-8 as a JSON string
 * and anything else as {"hex": "<every byte>"}, so no value is ambiguous.
 * Returns -errno on a write error.
 */
int record_write(const struct record *r, enum log_format format, FILE *out);

#endif
