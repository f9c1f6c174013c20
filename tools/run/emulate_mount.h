/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_EMULATE_MOUNT_H
#define KNOTIF_RUN_EMULATE_MOUNT_H

#include <limits.h>
#include <linux/seccomp.h>

#include "filter.h"
#include "mount_as.h"
#include "mount_policy.h"
#include "notif.h"

/*
 * knotif-run --emulate=mount: new filesystems for a command that may not
 * mount, under rigid controls (mount_policy.h). The filter sends only
 * mount(2) calls that make a new filesystem: a remount, a bind, a move
 * or a propagation change is the kernel's to decide, with the command's
 * own privileges, as is the new mount API (fsopen() and the rest). For
 * each, the supervisor reads source, target, type and options once,
 * checks them against the list and mounts as the thread would
 * (mount_as.h); then it replies the result. tools/run/README.md states
 * the security model.
 */

/* The filter rule: mount, when no remount, bind, move or propagation flag is set. */
int emulate_mount_rules(struct filter_rule *out);
/* Is req a call emulate_mount() serves? */
int emulate_mount_wants(const struct seccomp_notif *req);

enum mount_verdict {
	MOUNT_MOUNTED,		/* allowed, mounted: the call returns 0 */
	MOUNT_REFUSED,		/* not allowed: EPERM (EINVAL, ENODEV for a malformed call) */
	MOUNT_FAILED,		/* allowed, and mounting failed as the thread's would: its errno */
};
/* each verdict as the log and the summary name it: "mounted", "refused", "failed" */
extern const char *const mount_verdict_names[3];

struct mount_call {
	/* what the call named, read once; NULL where it passed NULL */
	const char *source, *target, *type, *data;
	char strings[4][PATH_MAX];
	int read_error;		/* a string could not be read: its errno */
	unsigned long flags;
	/* the outcome */
	enum mount_verdict verdict;
	int error;		/* what the call returns: 0 or an errno */
	char why[160];		/* why it failed (which step), for the log */
};

/*
 * Serves one notification: fills call, acts, and replies (the call's
 * result). mounted: how many mounts this run has made (MOUNT_MAX_COUNT
 * bounds them). 0; -ENOENT when the target left the call (killed or
 * interrupted) at any step, a mount made meanwhile included; another
 * -errno when the reply failed.
 */
int emulate_mount(int listener, struct notif_buf *nb, int mounted, struct mount_call *call);

#endif
