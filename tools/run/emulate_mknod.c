// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-run --emulate=mknod: the seeds' supervisor. The filter sends only
 * mknod/mknodat calls for character and block devices (FIFOs, sockets and
 * regular files never leave the kernel). For each, the supervisor reads the
 * path once, checks the device against the policy, and creates the node as
 * the calling thread would if it were allowed: in its mount namespace and
 * root, relative to its cwd or dirfd, with its fsuid, fsgid, groups and
 * umask, and nowhere its own permissions would not let it create a file
 * (lib/seccomp/mknod_as.h), by a helper kept for calls of the same context
 * (lib/seccomp/mknod_pool.h). tools/run/README.md states the security model.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "device_policy.h"
#include "emulation.h"
#include "mknod_pool.h"
#include "syscall_args.h"
#include "target_mem.h"

struct mknod_call {
	struct emulated_outcome out;	/* created, refused (not in the policy) or failed */
	struct mknod_as as;	/* the call as lib/seccomp/mknod_as.h makes it; as.path is path */
	char path[PATH_MAX];
	int path_error;		/* the path could not be read: its errno (EFAULT, ENAMETOOLONG) */
	struct mknod_pool_act act;	/* the helper making it (EMULATION_ACTING) */
};

/* --policy, or the default list (device_policy.h) */
static struct device_policy policy;
/* the helpers that make the nodes, kept between calls (lib/seccomp/mknod_pool.h) */
static struct mknod_pool pool;

static int configure(const char *policy_path, char *why, size_t why_len)
{
	device_policy_default(&policy);
	return policy_path ? device_policy_load(&policy, policy_path, why, why_len) : 0;
}

/* mknod and mknodat, when the mode is S_IFCHR or S_IFBLK */
static int rules(struct filter_rule *out)
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

static bool wants(const struct seccomp_notif *req)
{
	int dirfd;
	uint64_t path;
	mode_t mode;
	uint32_t dev;

#ifdef SYS_mknod
	if (req->data.nr != SYS_mknod && req->data.nr != SYS_mknodat)
		return false;
#else
	if (req->data.nr != SYS_mknodat)
		return false;
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

static int begin(int listener, const struct seccomp_notif *req, void *call, int *wait_fd)
{
	struct mknod_call *c = call;
	uint64_t addr;
	uint32_t dev;
	int ret;

	memset(c, 0, sizeof(*c));
	c->as.tid = (pid_t)req->pid;
	c->as.path = c->path;
	decode(req, &c->as.dirfd, &addr, &c->as.mode, &dev);
	c->as.major = dev_major(dev);
	c->as.minor = dev_minor(dev);
	c->out.verdict = EMULATED_FAILED;

	ret = read_path(listener, req, addr, c);
	if (ret)
		return ret;
	if (!device_policy_find(&policy, c->as.mode & S_IFMT, c->as.major, c->as.minor)) {
		c->out.verdict = EMULATED_REFUSED;
		c->out.error = EPERM;
		snprintf(c->out.why, sizeof(c->out.why), "not in the device policy");
	} else if (c->path_error) {
		c->out.error = c->path_error;
		snprintf(c->out.why, sizeof(c->out.why), "reading the path: %s", strerror(c->path_error));
	} else if (!c->path[0]) {
		c->out.error = ENOENT;
		snprintf(c->out.why, sizeof(c->out.why), "an empty path");
	} else {
		c->act.answer = true;	/* the helper answers as soon as it knows: one wake-up less */
		ret = mknod_pool_start(&pool, listener, req->id, &c->as, &c->act, c->out.why, sizeof(c->out.why));
		if (ret == -EAGAIN)
			return EMULATION_DEFER;	/* its context's helper has reported: reused once that is taken */
		if (ret < 0)
			return ret;
		if (ret == 0) {
			*wait_fd = c->act.fd;
			return EMULATION_ACTING;
		}
		c->out.error = ret;	/* nothing made: the dirfd, /proc, or no helper could take it */
	}
	return EMULATION_DECIDED;
}

static void finish(void *call)
{
	struct mknod_call *c = call;
	int ret = mknod_pool_finish(&pool, &c->act, c->out.why, sizeof(c->out.why));

	c->out.error = ret;
	c->out.verdict = ret ? EMULATED_FAILED : EMULATED_DONE;
	c->out.answered = c->act.answered;
}

static void abandon(void *call)
{
	struct mknod_call *c = call;

	mknod_pool_abandon(&pool, &c->act);
	c->out.error = EIO;
	c->out.verdict = EMULATED_FAILED;
	snprintf(c->out.why, sizeof(c->out.why), "knotif-run ended before the helper did: the node may exist");
}

static void end(void)
{
	mknod_pool_end(&pool);
}

static void helper_counts(int64_t *started, int64_t *reused)
{
	*started = (int64_t)pool.made;
	*reused = (int64_t)pool.handed;
}

static int strings(const void *call, const char *out[EMULATION_MAX_STRINGS])
{
	out[0] = ((const struct mknod_call *)call)->path;
	return 1;
}

const struct emulation mknod_emulation = {
	.name = "mknod",
	.help = "create the device nodes the command asks for (mknod, mknodat)\n"
		"when the policy lists them, as the command would if it were\n"
		"allowed; refuse the rest with EPERM (needs root; see README)\n",
	.verdict_names = { [EMULATED_DONE] = "created", [EMULATED_REFUSED] = "refused",
			   [EMULATED_FAILED] = "failed" },
	.needs = FEAT_AS_TARGET,
	.configure = configure,
	.rules = rules,
	.wants = wants,
	.call_size = sizeof(struct mknod_call),
	.begin = begin,
	.finish = finish,
	.abandon = abandon,
	.end = end,
	.helper_counts = helper_counts,
	.strings = strings,
};
