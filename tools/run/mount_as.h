/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_MOUNT_AS_H
#define KNOTIF_RUN_MOUNT_AS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "as_target.h"
#include "mount_policy.h"

/*
 * Mount spec at path for the notifying thread tid, as it would if it were
 * allowed to: from a helper in its mount namespace, root and cwd, with its
 * fsuid, fsgid and groups (the mountpoint is resolved, searched and owned
 * as the thread's), in the user namespace that owns that mount namespace
 * (the superblock is then as privileged as the namespace, no more), with
 * CAP_SYS_ADMIN alone. Refused with EPERM: a thread that shares the
 * supervisor's mount namespace (the mount would be everyone's), a
 * mountpoint that is not a directory the thread owns (a mount over what it
 * does not own replaces someone else's files, /etc for a setuid program),
 * and one on a shared mount (the mount would propagate to its peers, in
 * other namespaces: the host's, when the namespace was copied from a
 * systemd host's shared /).
 * The mount is made with the new mount API: fsopen(), fsconfig(),
 * fsmount() with spec's attributes, move_mount() onto the directory the
 * checks were made on (an open descriptor: a rename or a symlink swapped
 * in afterwards cannot move it).
 *
 * Started for a supervisor that serves other calls meanwhile: 0 when the
 * helper runs (act set: as_target_finish() takes its outcome, 0 or the
 * errno the call returns with why, once act->fd is readable); the errno of
 * a refusal before any helper, with why; -ENOENT when notification id went
 * away (nothing was mounted).
 */
int mount_as_start(int listener, uint64_t id, pid_t tid, const char *path, const char *source,
		   const struct mount_spec *spec, struct as_target_act *act, char *why, size_t why_len);

#endif
