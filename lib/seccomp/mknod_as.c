// SPDX-License-Identifier: GPL-2.0
#include "mknod_as.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "as_target.h"
#include "pdeath.h"

/*
 * After as_target_become(): the node, its parent resolved with no magic link
 * (/proc/PID/root and the like lead anywhere) and refused on a nodev
 * mount. 0, or the errno and the step in *step.
 */
int mknod_here(const char *path, mode_t mode, unsigned int major, unsigned int minor, const char **step)
{
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_MAGICLINKS };
	char dir[PATH_MAX];
	const char *base, *slash = strrchr(path, '/');
	struct statvfs vfs;
	int parent, err = 0;

	if (!slash) {
		snprintf(dir, sizeof(dir), ".");
		base = path;
	} else {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + (slash == path), path);
		base = slash + 1;
	}
	if (!*base) {	/* "dir/": the kernel creates no node under a trailing slash */
		struct stat st;

		*step = "a trailing slash";
		return fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) ? ENOENT : EEXIST;
	}
	*step = "resolving the parent directory";
	parent = (int)syscall(SYS_openat2, AT_FDCWD, dir, &how, sizeof(how));
	if (parent < 0)
		return errno;
	if (fstatvfs(parent, &vfs)) {
		*step = "reading the parent's mount flags";
		err = errno;
	} else if (vfs.f_flag & ST_NODEV) {
		*step = "the parent is on a nodev mount";
		err = EPERM;
	} else if (mknodat(parent, base, mode, makedev(major, minor))) {
		*step = "mknodat";
		err = errno;
	}
	close(parent);
	return err;
}

/* What a helper makes: the node of c, as t. */
struct mknod_work {
	const struct mknod_as *c;
	const struct as_target *t;
	const char *program;	/* the Incus way: exec this; NULL: in the forked helper */
};

static void make_in_helper(void *arg, int out)
{
	const struct mknod_work *w = arg;
	const char *step = "";
	int err = as_target_become(w->t, CAP_MKNOD, &step);

	if (!err)
		err = mknod_here(w->c->path, w->c->mode, w->c->major, w->c->minor, &step);
	as_target_report(out, err, err ? step : "");
}

/*
 * The Incus way: exec PROGRAM MKNOD_AS_HELPER_ARG with what make_in_helper()
 * would use as arguments; the program's main() hands them to
 * mknod_as_helper_main(). Descriptors stay open across the exec.
 */
static void exec_helper(void *arg, int out)
{
	const struct mknod_work *w = arg;
	const struct as_target *t = w->t;
	char fds[64], creds[64], node[64], groups[AS_TARGET_MAX_GROUPS * 11 + 1] = "";
	size_t used = 0;

	for (int i = 0; i < t->ngroups && used < sizeof(groups); i++)
		used += (size_t)snprintf(groups + used, sizeof(groups) - used, "%s%u", i ? "," : "",
					 (unsigned int)t->groups[i]);
	/* the exec'd helper gets these; O_CLOEXEC would close them */
	const int keep[] = { out, t->root, t->base, t->mntns };

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (keep[i] >= 0)
			fcntl(keep[i], F_SETFD, 0);
	snprintf(fds, sizeof(fds), "%d,%d,%d,%d", out, t->root, t->base, t->mntns);
	snprintf(creds, sizeof(creds), "%u,%u,%u", (unsigned int)t->fsuid, (unsigned int)t->fsgid,
		 (unsigned int)t->umask);
	snprintf(node, sizeof(node), "%u,%u,%u", (unsigned int)w->c->mode, w->c->major, w->c->minor);
	execl(w->program, w->program, MKNOD_AS_HELPER_ARG, fds, creds, groups, node, w->c->path,
	      (char *)NULL);
	as_target_report(out, errno, "exec'ing the helper");
}

static int start_as(int listener, uint64_t id, const struct mknod_as *c, const char *program,
		    struct as_target_act *act, char *why, size_t why_len)
{
	struct as_target t = AS_TARGET_INIT;
	struct mknod_work w = { .c = c, .t = &t, .program = program };
	int ret;

	t.at = c->at;
	ret = as_target_take(&t, listener, id, c->tid, c->dirfd, c->path, why, why_len);
	if (ret)
		return ret;
	ret = as_target_start(&t, program ? exec_helper : make_in_helper, &w, act, why, why_len);
	as_target_close(&t);	/* the helper has its own copies */
	return ret;
}

int mknod_as_start(int listener, uint64_t id, const struct mknod_as *c, struct as_target_act *act, char *why,
		   size_t why_len)
{
	return start_as(listener, id, c, NULL, act, why, why_len);
}

/* start_as(), then its outcome */
static int make_as(int listener, uint64_t id, const struct mknod_as *c, const char *program, char *why,
		   size_t why_len)
{
	struct as_target_act act;
	int ret = start_as(listener, id, c, program, &act, why, why_len);

	return ret ? ret : as_target_finish(&act, why, why_len);
}

int mknod_as(int listener, uint64_t id, const struct mknod_as *c, char *why, size_t why_len)
{
	return make_as(listener, id, c, NULL, why, why_len);
}

int mknod_as_exec(int listener, uint64_t id, const struct mknod_as *c, const char *program, char *why,
		  size_t why_len)
{
	return make_as(listener, id, c, program, why, why_len);
}

/* "a,b,c": n decimal numbers into out[]; 0, or -1 when s is not that */
static int parse_numbers(const char *s, long *out, int n)
{
	char *end;

	for (int i = 0; i < n; i++) {
		errno = 0;
		out[i] = strtol(s, &end, 10);
		if (errno || end == s || *end != (i == n - 1 ? '\0' : ','))
			return -1;
		s = end + 1;
	}
	return 0;
}

int mknod_as_helper_main(int argc, char **argv)
{
	long fds[4], creds[3], node[3], gid;
	struct as_target t = { 0 };
	const char *step = "", *g;
	char *end;
	int err;

	if (argc != 5 || parse_numbers(argv[0], fds, 4) || parse_numbers(argv[1], creds, 3) ||
	    parse_numbers(argv[3], node, 3))
		return 2;
	for (g = argv[2]; *g; g = *end ? end + 1 : end) {
		if (t.ngroups == AS_TARGET_MAX_GROUPS)
			return 2;	/* dropping a group could grant what it denies */
		gid = strtol(g, &end, 10);
		if (end == g || (*end && *end != ','))
			return 2;
		t.groups[t.ngroups++] = (gid_t)gid;
	}
	t.root = (int)fds[1];
	t.base = (int)fds[2];
	t.mntns = (int)fds[3];
	t.fsuid = (uid_t)creds[0];
	t.fsgid = (gid_t)creds[1];
	t.umask = (mode_t)creds[2];
	err = as_target_become(&t, CAP_MKNOD, &step);
	if (!err)
		err = mknod_here(argv[4], (mode_t)node[0], (unsigned int)node[1], (unsigned int)node[2], &step);
	as_target_report((int)fds[0], err, err ? step : "");
}
