/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_MOUNT_POLICY_H
#define KNOTIF_RUN_MOUNT_POLICY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The mounts knotif-run --emulate=mount makes, a rigid list: tmpfs alone,
 * nosuid,nodev,noexec forced, each bounded (a tmpfs's default size is half
 * the host's memory, 0 is unlimited, and the host pays), at most
 * MOUNT_MAX_COUNT in a run. Options: size=, nr_inodes= (k, m, g suffixes)
 * and mode= (octal); flags: ro, nosuid, nodev, noexec and the atime ones.
 * Anything else is EPERM; a malformed value is EINVAL, as the kernel says.
 */
#define MOUNT_MAX_SIZE (64ULL << 20)
#define MOUNT_MAX_INODES 65536ULL
#define MOUNT_MAX_COUNT 16

/* A mount the policy allows, as fsopen()/fsconfig()/fsmount() take it. */
struct mount_spec {
	const char *type;		/* "tmpfs" */
	unsigned long long size;	/* bytes: the asked size, or MOUNT_MAX_SIZE */
	unsigned long long nr_inodes;	/* the asked count, or MOUNT_MAX_INODES */
	int mode;			/* the root's mode, or -1: tmpfs's own default */
	bool rdonly;			/* the superblock too, as mount(2)'s MS_RDONLY */
	unsigned int attr;		/* MOUNT_ATTR_*: NOSUID|NODEV|NOEXEC always */
};

/*
 * The mount(2) call of a new filesystem, type, flags and data (NULL: none)
 * as read from the target, against the list: 0 with spec filled, or EPERM
 * (not on it), EINVAL (malformed) or ENODEV (no type) with why.
 */
int mount_policy_check(const char *type, unsigned long flags, const char *data, struct mount_spec *spec,
		       char *why, size_t why_len);

#endif
