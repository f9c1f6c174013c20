// SPDX-License-Identifier: GPL-2.0
#include "emulate_mknod.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "mknod_as.h"
#include "target_mem.h"

const char *const mknod_verdict_names[3] = {
	[MKNOD_CREATED] = "created", [MKNOD_REFUSED] = "refused", [MKNOD_FAILED] = "failed",
};

int emulate_mknod_rules(struct filter_rule *out)
{
	int n = 0;

#ifdef SYS_mknod
	out[n++] = (struct filter_rule){ .nr = SYS_mknod, .arg = 1, .mask = S_IFMT,
					 .values = { S_IFCHR, S_IFBLK }, .nvalues = 2 };
#endif
	out[n++] = (struct filter_rule){ .nr = SYS_mknodat, .arg = 2, .mask = S_IFMT,
					 .values = { S_IFCHR, S_IFBLK }, .nvalues = 2 };
	return n;
}

/* The call's arguments, as the kernel reads them: mode is a umode_t, dev a u32. */
static void decode(const struct seccomp_notif *req, int *dirfd, uint64_t *path, mode_t *mode,
		   uint32_t *dev)
{
	const __u64 *a = req->data.args;
	int at = req->data.nr == SYS_mknodat;

	*dirfd = at ? (int)a[0] : AT_FDCWD;
	*path = a[at];
	*mode = (mode_t)(uint16_t)a[at + 1];
	*dev = (uint32_t)a[at + 2];
}

int emulate_mknod_wants(const struct seccomp_notif *req)
{
	int dirfd;
	uint64_t path;
	mode_t mode;
	uint32_t dev;

#ifdef SYS_mknod
	if (req->data.nr != SYS_mknod && req->data.nr != SYS_mknodat)
		return 0;
#else
	if (req->data.nr != SYS_mknodat)
		return 0;
#endif
	decode(req, &dirfd, &path, &mode, &dev);
	return (mode & S_IFMT) == S_IFCHR || (mode & S_IFMT) == S_IFBLK;
}

/* The path, read once: every later step uses this copy, never the target's memory. */
static int read_path(int listener, const struct seccomp_notif *req, uint64_t addr, struct mknod_call *c)
{
	struct target_mem m;
	int truncated = 0;
	ssize_t n = target_mem_open(&m, listener, req->id, c->as.tid);

	if (n == 0) {
		n = target_mem_string(&m, addr, c->path, sizeof(c->path), &truncated);
		target_mem_close(&m);
	}
	if (n == -ENOENT)
		return -ENOENT;
	c->path_error = n < 0 ? (int)-n : truncated ? ENAMETOOLONG : 0;
	return 0;
}

int emulate_mknod(int listener, struct notif_buf *nb, const struct device_policy *policy,
		  struct mknod_call *c)
{
	const struct seccomp_notif *req = nb->req;
	uint64_t addr;
	uint32_t dev;
	int ret;

	memset(c, 0, sizeof(*c));
	c->as.tid = (pid_t)req->pid;
	c->as.path = c->path;
	decode(req, &c->as.dirfd, &addr, &c->as.mode, &dev);
	c->as.major = dev_major(dev);
	c->as.minor = dev_minor(dev);
	c->verdict = MKNOD_FAILED;

	ret = read_path(listener, req, addr, c);
	if (ret)
		return ret;
	if (!device_policy_find(policy, c->as.mode & S_IFMT, c->as.major, c->as.minor)) {
		c->verdict = MKNOD_REFUSED;
		c->error = EPERM;
		snprintf(c->why, sizeof(c->why), "not in the device policy");
	} else if (c->path_error) {
		c->error = c->path_error;
		snprintf(c->why, sizeof(c->why), "reading the path: %s", strerror(c->path_error));
	} else if (!c->path[0]) {
		c->error = ENOENT;
		snprintf(c->why, sizeof(c->why), "an empty path");
	} else {
		ret = mknod_as(listener, req->id, &c->as, c->why, sizeof(c->why));
		if (ret < 0)
			return ret;
		c->error = ret;
		c->verdict = ret ? MKNOD_FAILED : MKNOD_CREATED;
	}
	return notif_send_emulate(listener, nb, req->id, 0, c->error);
}
