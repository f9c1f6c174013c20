/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_EMULATE_MKNOD_H
#define KNOTIF_RUN_EMULATE_MKNOD_H

#include <limits.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/types.h>

#include "device_policy.h"
#include "filter.h"
#include "mknod_as.h"
#include "notif.h"
#include "syscall_args.h"

/*
 * knotif-run --emulate=mknod: the seeds' supervisor. The filter sends only
 * mknod/mknodat calls for character and block devices (FIFOs, sockets and
 * regular files never leave the kernel). For each, the supervisor reads the
 * path once, checks the device against the policy, and creates the node as
 * the calling thread would if it were allowed: in its mount namespace and
 * root, relative to its cwd or dirfd, with its fsuid, fsgid, groups and
 * umask, and nowhere its own permissions would not let it create a file;
 * then it replies the creation's result. tools/run/README.md states the
 * security model.
 */

/* The two filter rules: mknod and mknodat, when the mode is S_IFCHR or S_IFBLK. */
int emulate_mknod_rules(struct filter_rule *out);
/* Is req a call emulate_mknod() serves: mknod or mknodat of a character or block device? */
int emulate_mknod_wants(const struct seccomp_notif *req);

enum mknod_verdict {
	MKNOD_CREATED,		/* on the list, made: the call returns 0 */
	MKNOD_REFUSED,		/* not on the list: EPERM, nothing made */
	MKNOD_FAILED,		/* on the list, and making it failed as the target's would: its errno */
};
/* each verdict as the log and the summary name it: "created", "refused", "failed" */
extern const char *const mknod_verdict_names[3];

struct mknod_call {
	struct mknod_as as;	/* the call as lib/mknod_as.h makes it; as.path is path */
	char path[PATH_MAX];
	int path_error;		/* the path could not be read: its errno (EFAULT, ENAMETOOLONG) */
	/* the outcome */
	enum mknod_verdict verdict;
	int error;		/* what the call returns: 0 or an errno */
	char why[160];		/* why it failed (which step), for the log */
};

/*
 * Serves one notification: fills call, acts, and replies (the call's
 * result). 0; -ENOENT when the target left the call (killed or
 * interrupted) at any step, a node made meanwhile included (call says
 * what happened); another -errno when the reply failed.
 */
int emulate_mknod(int listener, struct notif_buf *nb, const struct device_policy *policy,
		  struct mknod_call *call);

#endif
