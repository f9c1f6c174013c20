/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_CGROUP_H
#define KNOTIF_CGROUP_H

#include <stdbool.h>

/*
 * Where a thread's cgroups are, as this (the supervisor's) mount namespace
 * sees them: the cgroup mounts of whole hierarchies, and the one a line of
 * /proc/TID/cgroup names. lib/seccomp/as_target.c joins them; knotif-run's
 * --emulate=sysinfo reads the memory controller's figures there.
 */

#define CGROUP_MAX_MOUNTS 32

struct cgroup_mount {
	bool v2;
	char super[256];	/* v1: the super options, its controllers and name= among them */
	char point[512];
};

/*
 * This mount namespace's cgroup mounts of whole hierarchies (root "/"): n,
 * or -errno; -E2BIG past max (a hierarchy left unread would be one not
 * joined, and its rules not applied: closed, not open).
 */
int cgroup_mounts(struct cgroup_mount *m, int max);

/* The mount of the hierarchy a /proc/PID/cgroup line names (controllers "": cgroup2), or NULL. */
const struct cgroup_mount *cgroup_hierarchy(const struct cgroup_mount *m, int n, const char *controllers);

/*
 * One line of /proc/PID/cgroup, "ID:CONTROLLERS:PATH", split in place:
 * 0, or -EPROTO when it is not one.
 */
int cgroup_line(char *line, char **controllers, char **path);

#endif
