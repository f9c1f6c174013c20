/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_MKNOD_POOL_H
#define KNOTIF_MKNOD_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "as_target.h"
#include "mknod_as.h"

/*
 * Device nodes made as the calling thread would make them, by helpers kept
 * between calls: knotif-run --emulate=mknod's way. A helper is what
 * mknod_as() forks for one call (in the thread's cgroups, mount namespace
 * and root, with its fsuid, fsgid and groups, every capability gone but
 * CAP_MKNOD), kept for the next call whose thread has the same of each.
 * Every call still takes its thread's context from /proc and checks
 * ID_VALID after (as_target_take()); only a helper whose context equals it
 * is handed the call, with what changes call to call: the umask, and the
 * cwd or dirfd a relative path starts at (passed as a descriptor).
 *
 * The expensive part of a per-call helper (fork, joining cgroups, the
 * reaping: ~95% of agent/mknod-fork's steps) is paid once a context. A
 * helper serves one call at a time: a call whose helper is busy (blocked
 * in the thread's FUSE filesystem, say) gets another, so a stuck act holds
 * only its own call. tools/run/README.md states the security model.
 */

/* helpers at most, busy or idle: knotif-run's limit of calls acting at once */
#define MKNOD_POOL_MAX 256
/* idle helpers kept past an act (the least recently used go first) */
#define MKNOD_POOL_IDLE 8

/* The context a helper was made in: equal contexts, the same helper. */
struct mknod_context {
	uint64_t root_mnt;	/* the thread's root: mount id (its mount namespace), device, inode */
	uint64_t root_dev, root_ino;
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t groups[AS_TARGET_MAX_GROUPS];
	char cgroups[sizeof(((struct as_target *)0)->cgroups)];
};

struct mknod_helper {
	pid_t pid;
	int pidfd;		/* for its reaping, as lib/seccomp/as_target.c's acts */
	int sock;		/* requests in, outcomes out (SOCK_SEQPACKET) */
	bool busy;		/* a call is in it */
	uint64_t used;		/* when it last took a call (the pool's clock) */
	struct mknod_context ctx;
};

struct mknod_pool {
	struct mknod_helper *helper[MKNOD_POOL_MAX];	/* helper[0 .. n - 1] */
	int n;
	uint64_t clock;
	uint64_t made, handed;	/* helpers started; calls handed to one already running */
};

/* The moments of one call (now_ns(), comparable across processes): knotif-bench's agent/mknod-pool steps. */
enum mknod_pool_moment {
	POOL_AT_START,		/* the supervisor starts taking the thread's context */
	POOL_AT_TAKEN,		/* /proc read, ID_VALID checked, the helper chosen (or started) */
	POOL_AT_RECEIVED,	/* the helper has the request */
	POOL_AT_ACTED,		/* the node made (or refused by the kernel): the helper reports, then answers */
	POOL_AT_HEARD,		/* the supervisor has the outcome */
	POOL_AT_COUNT
};

/*
 * What mknod_pool_start() does before it chooses a helper: the thread's
 * context taken from /proc (as_target_take(), ID_VALID checked) into ctx.
 * 0, or the errno mknod_pool_start() would return. knotif-bench's
 * agent/mknod-root/context prices it: the part of every call no kept
 * helper saves.
 */
int mknod_pool_context(int listener, uint64_t id, const struct mknod_as *c, struct mknod_context *ctx,
		       char *why, size_t why_len);

/*
 * A call handed to a helper: its outcome once fd is readable. With answer
 * set, the helper answers the notification itself once the node is made
 * or refused (the call returns val, or fails with the act's errno): the
 * target runs one wake-up sooner. It reports to the supervisor first, so
 * that the report is there before the target can call again (the next
 * call finds the helper's report waiting, and the helper reused); what
 * its answer met (a target gone meanwhile) is not known.
 */
struct mknod_pool_act {
	bool answer;			/* in: the helper answers (SECCOMP_IOCTL_NOTIF_SEND) */
	int64_t val;			/* in: what a made node returns */
	int64_t *at;			/* in: NULL, or where the call's POOL_AT_COUNT moments go */
	struct mknod_helper *helper;	/* NULL once finished or abandoned */
	int fd;				/* the helper's socket */
	bool answered;			/* out (finish): the helper answers (after its report) */
};

/*
 * Takes the thread's context (as mknod_as()) and hands the node to a
 * helper of that context, started if none is idle (it keeps listener, to
 * answer). 0 with act set; else the errno the call should get, with why:
 * mknod_as()'s (the dirfd, /proc), EIO when no helper could start or
 * take it (nothing made), EAGAIN when MKNOD_POOL_MAX helpers are busy;
 * -ENOENT when notification id went away (nothing made);
 * -EAGAIN, nothing done, when a busy helper of the context has reported
 * and is not yet finished (mknod_pool_finish()): start the call again
 * after finishing it, and that helper takes it.
 * c and its path may go once this returns.
 */
int mknod_pool_start(struct mknod_pool *p, int listener, uint64_t id, const struct mknod_as *c,
		     struct mknod_pool_act *act, char *why, size_t why_len);
/*
 * The act's outcome once act->fd is readable (waits otherwise, as long as
 * the act takes): 0, or its errno with why; EIO when the helper died
 * without a word (what it did is not known). The helper is idle again,
 * unless it died or could not become the thread (then it is let go).
 */
int mknod_pool_finish(struct mknod_pool *p, struct mknod_pool_act *act, char *why, size_t why_len);
/* Gives the act up unheard: its helper is killed (reaped within 1 s when it goes). */
void mknod_pool_abandon(struct mknod_pool *p, struct mknod_pool_act *act);
/*
 * Ends every helper: an idle one sees its socket close and exits once it
 * has answered its last call (reaped, 1 s at most, then killed); a busy one
 * is killed.
 */
void mknod_pool_end(struct mknod_pool *p);

#endif
