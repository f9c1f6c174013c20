/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_AS_TARGET_H
#define KNOTIF_AS_TARGET_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/capability.h>
#include <sys/types.h>

/*
 * Acting for a notifying thread as it would act if it were allowed to: a
 * forked helper enters the thread's mount namespace, root and cwd (or the
 * dirfd a relative path starts at), takes its fsuid, fsgid, groups and
 * umask, and drops every capability but the one the call needs. Path
 * resolution and permission checks are then the kernel's own, for that
 * thread. lib/seccomp/mknod_as.c (device nodes) and knotif-run's mount_as.c
 * (mounts) are built on it; tools/run/README.md states the security model.
 */

#define AS_TARGET_MAX_GROUPS 256

/*
 * The moments of one act (now_ns(), comparable across processes), for a
 * breakdown of where its cost goes (knotif-bench's agent/mknod-fork).
 */
enum as_target_moment {
	AS_AT_START,		/* the supervisor starts taking the thread's context */
	AS_AT_TAKEN,		/* its /proc read, ID_VALID checked */
	AS_AT_FORK,		/* the report pipe made: about to fork */
	AS_AT_CHILD,		/* the helper runs */
	AS_AT_PDEATH,		/* it dies with the supervisor (PR_SET_PDEATHSIG, re-checked) */
	AS_AT_CGROUPS,		/* the thread's cgroups joined */
	AS_AT_SETNS,		/* in its mount namespace */
	AS_AT_ROOT,		/* in its root (chroot) and at its cwd or dirfd */
	AS_AT_CREDS,		/* its umask, groups, fsgid and fsuid taken */
	AS_AT_CAPS,		/* every capability dropped but one */
	AS_AT_ACTED,		/* the act done: reporting */
	AS_AT_HEARD,		/* the supervisor has the report */
	AS_AT_REAPED,		/* and has reaped the helper */
	AS_AT_COUNT
};

/* What acting as the thread needs of it, taken while its call waits. */
struct as_target {
	int root, base, mntns;	/* -1 when not open; base: where a relative path starts */
	uid_t fsuid;
	gid_t fsgid;
	gid_t groups[AS_TARGET_MAX_GROUPS];
	int ngroups;
	mode_t umask;
	char cgroups[4096];	/* /proc/TID/cgroup: the cgroups a helper joins first */
	bool no_mntns;		/* as_target_take() leaves mntns closed (lib/seccomp/mknod_pool.c: its root says it) */
	int64_t *at;		/* NULL, or where the act's AS_AT_COUNT moments go (0: not reached) */
};
#define AS_TARGET_INIT { .root = -1, .base = -1, .mntns = -1 }

/*
 * Opens and reads what the helper works from, for the call `id` of thread
 * tid whose path is path (relative: from dirfd, or the cwd for
 * AT_FDCWD), then checks that id is still waiting, so that all of it is
 * the calling thread's and not a reused tid's. 0; the errno the call
 * itself would get for its dirfd (EBADF, ENOTDIR), or EIO when /proc
 * refused, with why; -ENOENT when the call went away. t is closed
 * unless 0 is returned.
 */
int as_target_take(struct as_target *t, int listener, uint64_t id, pid_t tid, int dirfd,
		   const char *path, char *why, size_t why_len);
void as_target_close(struct as_target *t);

/*
 * In a forked helper, first, while still in the supervisor's mount
 * namespace: join every cgroup the thread is in (each hierarchy of
 * /proc/TID/cgroup, found among this namespace's cgroup mounts; a v2
 * hierarchy mounted nowhere here is left), so that the thread's device
 * cgroup judges what the helper makes and its limits count the helper. 0,
 * or the errno and the failed step in *step: a cgroup that cannot be
 * joined fails the call (closed, not open).
 */
int as_target_join_cgroups(const struct as_target *t, const char **step);

/*
 * In a helper: become the thread (see above), keeping only capability
 * keep (effective and permitted). 0, or the errno and the failed step in
 * *step.
 */
int as_target_become(const struct as_target *t, cap_value_t keep, const char **step);

/* What a helper reports over its pipe or socket. */
struct as_target_result {
	int error;		/* 0: done; else the errno */
	char why[128];		/* the step that failed */
	int64_t at[AS_AT_COUNT];	/* the helper's moments (AS_AT_CHILD .. AS_AT_ACTED) */
};

/* In a helper: report error (0: done) and the step, and exit. */
__attribute__((noreturn)) void as_target_report(int fd, int error, const char *why);

/* An act started in a helper and not yet heard from (as_target_start()). */
struct as_target_act {
	pid_t pid;		/* the helper; 0 once reaped */
	int pidfd;		/* the helper, for its reaping: a pid a SIGCHLD handler reaped can be reused */
	int fd;			/* its report: readable once it has reported or died */
	bool reported;		/* as_target_finish() read a report: the error is the act's own */
	int64_t *at;		/* as t->at */
};

/*
 * Starts work(arg, report_fd) in a forked helper that dies with us and has
 * joined t's cgroups (as_target_join_cgroups()); work ends with
 * as_target_report(report_fd, ...) or an exec of a program that does. t
 * may be closed once this returns (the helper has its own descriptors).
 * 0 with act set; EIO with why when no helper could start (nothing done).
 */
int as_target_start(const struct as_target *t, void (*work)(void *arg, int report_fd), void *arg,
		    struct as_target_act *act, char *why, size_t why_len);
/*
 * The act's outcome: waits for the helper's report for as long as the act
 * takes (a caller that serves others polls act->fd first), then reaps the
 * helper. Never before the act is known: a helper blocked in the target's
 * filesystem is waited for, as the thread's own call would have been. 0,
 * or the errno the helper reported, with why; EIO when it died without a
 * report (act->reported false: what it did is not known).
 */
int as_target_finish(struct as_target_act *act, char *why, size_t why_len);
/*
 * Gives an act up unheard (its supervisor is ending): SIGKILL to the
 * helper, reaped if it goes within 1 s. One in an uninterruptible sleep
 * may still complete the act: the caller says so.
 */
void as_target_abandon(struct as_target_act *act);

/* poll() one descriptor for ms at most, through signals (a caller's SIGCHLD handler, say) */
int as_target_poll(struct pollfd *pfd, int ms);
/* Reap pid (a helper of ours) if it has gone or goes within 1 s: true when it is gone. */
bool as_target_reaped_within_1s(pid_t pid);
/*
 * SIGKILL pid and reap it if it goes within 1 s. One stuck in an
 * uninterruptible sleep (a FUSE server that never answers) is left: it is
 * our child, reaped by whoever waits for children later (SIGCHLD and its
 * handler in knotif-run), and the supervisor is not held with it.
 */
void as_target_kill(pid_t pid);

#endif
