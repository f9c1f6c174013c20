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
static int make_here(const char *path, mode_t mode, unsigned int major, unsigned int minor,
		     const char **step)
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
		err = make_here(w->c->path, w->c->mode, w->c->major, w->c->minor, &step);
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
		err = make_here(argv[4], (mode_t)node[0], (unsigned int)node[1], (unsigned int)node[2], &step);
	as_target_report((int)fds[0], err, err ? step : "");
}

/* One request to a resident helper, and its answer. */
struct resident_request {
	mode_t mode;
	unsigned int major, minor;
	char path[PATH_MAX];
};

__attribute__((noreturn))
static void resident(int sock, pid_t supervisor, const struct as_target *t)
{
	struct as_target_result r = { 0 };
	struct resident_request q;
	const char *step = "";

	if (pdeath_follow(supervisor, SIGKILL))
		_exit(1);
	r.error = as_target_join_cgroups(t, &step);
	if (!r.error)
		r.error = as_target_become(t, CAP_MKNOD, &step);
	snprintf(r.why, sizeof(r.why), "%s", r.error ? step : "");
	if (send(sock, &r, sizeof(r), MSG_NOSIGNAL) != (ssize_t)sizeof(r) || r.error)
		_exit(1);
	/* until the supervisor hangs up: one node per request (the path's own bytes only) */
	while (recv(sock, &q, sizeof(q), 0) > (ssize_t)offsetof(struct resident_request, path)) {
		q.path[sizeof(q.path) - 1] = '\0';
		r.error = make_here(q.path, q.mode, q.major, q.minor, &step);
		snprintf(r.why, sizeof(r.why), "%s", r.error ? step : "");
		if (send(sock, &r, sizeof(r), MSG_NOSIGNAL) != (ssize_t)sizeof(r))
			break;
	}
	_exit(0);
}

/* The answer on r->sock, AS_TARGET_TIMEOUT_MS at most: 0 or the errno, with why. */
static int resident_answer(struct mknod_resident *r, char *why, size_t why_len)
{
	struct as_target_result a;
	struct pollfd pfd = { .fd = r->sock, .events = POLLIN };

	/* a late answer would answer the next request: a helper that is late is ended */
	if (as_target_poll(&pfd, AS_TARGET_TIMEOUT_MS) != 1) {
		snprintf(why, why_len, "the resident helper did not answer in %d s", AS_TARGET_TIMEOUT_MS / 1000);
		mknod_resident_stop(r);
		return EIO;
	}
	if (recv(r->sock, &a, sizeof(a), 0) != (ssize_t)sizeof(a)) {
		snprintf(why, why_len, "the resident helper died");
		mknod_resident_stop(r);
		return EIO;
	}
	a.why[sizeof(a.why) - 1] = '\0';
	if (a.error)
		snprintf(why, why_len, "%s: %s", a.why, strerror(a.error));
	return a.error;
}

int mknod_resident_start(struct mknod_resident *r, int listener, uint64_t id, pid_t tid, char *why,
			 size_t why_len)
{
	struct as_target t = AS_TARGET_INIT;
	int ret, sv[2];
	pid_t self = getpid();

	r->pid = -1;
	r->sock = -1;
	/* relative paths from the cwd it has now */
	ret = as_target_take(&t, listener, id, tid, AT_FDCWD, ".", why, why_len);
	if (ret)
		return ret;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(why, why_len, "socketpair: %s", strerror(errno));
		as_target_close(&t);
		return EIO;
	}
	r->pid = fork();
	if (r->pid == 0) {
		close(sv[0]);
		resident(sv[1], self, &t);
	}
	close(sv[1]);
	as_target_close(&t);
	r->sock = sv[0];
	if (r->pid < 0) {
		snprintf(why, why_len, "fork: %s", strerror(errno));
		close(r->sock);
		r->sock = -1;
		return EIO;
	}
	ret = resident_answer(r, why, why_len);
	if (ret)
		mknod_resident_stop(r);
	return ret;
}

int mknod_resident_make(struct mknod_resident *r, const char *path, mode_t mode, unsigned int major,
			unsigned int minor, char *why, size_t why_len)
{
	struct resident_request q = { .mode = mode, .major = major, .minor = minor };
	size_t len;

	if (strlen(path) >= sizeof(q.path)) {
		snprintf(why, why_len, "a path of PATH_MAX bytes or more");
		return ENAMETOOLONG;
	}
	if (r->sock < 0) {
		snprintf(why, why_len, "the resident helper was ended");
		return EIO;
	}
	strcpy(q.path, path);
	len = offsetof(struct resident_request, path) + strlen(path) + 1;
	if (send(r->sock, &q, len, MSG_NOSIGNAL) != (ssize_t)len) {
		snprintf(why, why_len, "handing the request over: %s", strerror(errno));
		mknod_resident_stop(r);	/* as a late or dead helper is: no answer may be left to pair */
		return EIO;
	}
	return resident_answer(r, why, why_len);
}

void mknod_resident_stop(struct mknod_resident *r)
{
	if (r->sock >= 0)
		close(r->sock);	/* the helper's recv() sees the end and it exits */
	r->sock = -1;
	/* 1 s to see the end and exit, then SIGKILL */
	if (r->pid > 0 && !as_target_reaped_within_1s(r->pid))
		as_target_kill(r->pid);
	r->pid = -1;
}
