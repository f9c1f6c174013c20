/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_MKNOD_AS_H
#define KNOTIF_MKNOD_AS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "as_target.h"

/*
 * Make a device node as a notifying thread would if it were allowed to:
 * from a forked helper in the thread's mount namespace and root, relative
 * to its cwd or dirfd, with its fsuid, fsgid, groups and umask, and every
 * capability dropped but CAP_MKNOD (the kernel's own permission checks are
 * the thread's); the parent is resolved with no magic link, and a nodev
 * mount is refused (lib/seccomp/as_target.h does the becoming). The one
 * implementation knotif-run --emulate=mknod and knotif-bench's agent rows
 * share. tools/run/README.md states the security model.
 */
struct mknod_as {
	pid_t tid;		/* the calling thread, as the notification names it */
	int dirfd;		/* AT_FDCWD, or the thread's descriptor for a relative path */
	const char *path;	/* the supervisor's own copy, read once */
	mode_t mode;
	unsigned int major, minor;
	int64_t *at;		/* NULL, or the act's AS_AT_COUNT moments (lib/seccomp/as_target.h) */
};

/*
 * 0 when made; the errno the call should return (EACCES, ENOENT, EEXIST,
 * ELOOP, EPERM for nodev, EBADF/ENOTDIR for the dirfd, EIO when the helper
 * failed), with the failed step in why; -ENOENT when notification id went
 * away meanwhile (nothing was made).
 */
int mknod_as(int listener, uint64_t id, const struct mknod_as *c, char *why, size_t why_len);
/*
 * The same, for a supervisor that serves other calls meanwhile: the node's
 * helper started (0, act set: as_target_finish() takes its outcome once
 * act->fd is readable), or mknod_as()'s errno or -ENOENT before any helper
 * started. c and its path may go once this returns.
 */
int mknod_as_start(int listener, uint64_t id, const struct mknod_as *c, struct as_target_act *act, char *why,
		   size_t why_len);

/*
 * The Incus way: the same, but the forked helper execs program (which must
 * hand `program MKNOD_AS_HELPER_ARG ARGS...` to mknod_as_helper_main(),
 * first thing in its main()) and does the work there.
 */
#define MKNOD_AS_HELPER_ARG "--knotif-mknod-helper"
int mknod_as_exec(int listener, uint64_t id, const struct mknod_as *c, const char *program, char *why,
		  size_t why_len);
/* argv after MKNOD_AS_HELPER_ARG: makes the node, reports, and exits; 2 on arguments it cannot read */
int mknod_as_helper_main(int argc, char **argv);

/*
 * In a helper that has become the thread (as_target_become()): the node,
 * its parent resolved with no magic link (/proc/PID/root and the like lead
 * anywhere) and refused on a nodev mount. 0, or the errno and the step in
 * *step. lib/seccomp/mknod_pool.c's helpers call it too.
 */
int mknod_here(const char *path, mode_t mode, unsigned int major, unsigned int minor, const char **step);

#endif
