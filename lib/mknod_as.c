// SPDX-License-Identifier: GPL-2.0
#include "mknod_as.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/openat2.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "notif.h"
#include "pdeath.h"

/* A helper stuck in the target's filesystem (a hung FUSE server) is killed after this. */
#define HELPER_TIMEOUT_MS 10000
#define MAX_GROUPS 256

/* What the creation needs of the calling thread, taken while its call waits. */
struct target_ctx {
	int root, base, mntns;		/* -1 when not open */
	uid_t fsuid;
	gid_t fsgid;
	gid_t groups[MAX_GROUPS];
	int ngroups;
	mode_t umask;
};

static void ctx_close(struct target_ctx *t)
{
	if (t->root >= 0)
		close(t->root);
	if (t->base >= 0)
		close(t->base);
	if (t->mntns >= 0)
		close(t->mntns);
}

/* fsuid, fsgid, groups and umask from /proc/TID/status (ids as this namespace sees them). */
static int read_status(int proc, struct target_ctx *t)
{
	char line[4096];
	unsigned int u[4], g[4];
	int seen = 0;
	FILE *f;
	int fd = openat(proc, "status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int mask;

		if (sscanf(line, "Umask: %o", &mask) == 1) {
			t->umask = (mode_t)mask;
			seen |= 1;
		} else if (sscanf(line, "Uid: %u %u %u %u", &u[0], &u[1], &u[2], &u[3]) == 4) {
			t->fsuid = u[3];
			seen |= 2;
		} else if (sscanf(line, "Gid: %u %u %u %u", &g[0], &g[1], &g[2], &g[3]) == 4) {
			t->fsgid = g[3];
			seen |= 4;
		} else if (!strncmp(line, "Groups:", 7)) {
			char *s = line + 7, *end;

			t->ngroups = 0;
			for (unsigned long v = strtoul(s, &end, 10); end != s; v = strtoul(s, &end, 10)) {
				if (t->ngroups == MAX_GROUPS) {
					fclose(f);
					return -E2BIG;
				}
				t->groups[t->ngroups++] = (gid_t)v;
				s = end;
			}
			seen |= 8;
		}
	}
	fclose(f);
	return seen == 15 ? 0 : -EPROTO;
}

/*
 * Opens what the helper works from: the thread's root, mount namespace,
 * and the directory a relative path starts at (its cwd, or dirfd).
 * Returns 0 or the errno the call itself would get (EBADF, ENOTDIR for a
 * dirfd), or -errno when the target is gone or /proc refuses.
 */
static int ctx_open(struct target_ctx *t, const struct mknod_as *c)
{
	char name[32];
	int proc, ret = 0;

	snprintf(name, sizeof(name), "/proc/%d", (int)c->tid);
	proc = open(name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0)
		return -errno;
	t->root = openat(proc, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	t->mntns = openat(proc, "ns/mnt", O_RDONLY | O_CLOEXEC);
	if (t->root < 0 || t->mntns < 0) {
		ret = -errno;
		goto out;
	}
	if (c->path[0] != '/') {
		if (c->dirfd == AT_FDCWD) {
			t->base = openat(proc, "cwd", O_PATH | O_DIRECTORY | O_CLOEXEC);
		} else if (c->dirfd < 0) {
			ret = EBADF;
			goto out;
		} else {
			snprintf(name, sizeof(name), "fd/%d", c->dirfd);
			t->base = openat(proc, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (t->base < 0 && (errno == ENOENT || errno == ENOTDIR)) {
				ret = errno == ENOENT ? EBADF : ENOTDIR;
				goto out;
			}
		}
		if (t->base < 0) {
			ret = -errno;
			goto out;
		}
	}
	ret = read_status(proc, t);
out:
	close(proc);
	return ret;
}

/* What the helper reports over its pipe. */
struct helper_result {
	int error;		/* 0: made; else the errno */
	char why[128];		/* the step that failed */
};

__attribute__((noreturn))
static void helper_report(int fd, int error, const char *why)
{
	struct helper_result r = { .error = error };

	snprintf(r.why, sizeof(r.why), "%s", why);
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

/* The caller's capabilities become CAP_MKNOD alone (effective and permitted). */
static int keep_only_mknod(void)
{
	cap_value_t mknod_cap = CAP_MKNOD;
	cap_t caps = cap_init();
	int ret;

	if (!caps)
		return -1;
	ret = cap_set_flag(caps, CAP_PERMITTED, 1, &mknod_cap, CAP_SET) ||
	      cap_set_flag(caps, CAP_EFFECTIVE, 1, &mknod_cap, CAP_SET) || cap_set_proc(caps);
	cap_free(caps);
	return ret ? -1 : 0;
}

/*
 * In a forked helper: become the calling thread as far as creating a file
 * goes. Path resolution is then the kernel's own from the thread's root and
 * cwd (a ".." or a symlink stops at its root as it would for the thread),
 * and the permission checks are the thread's: only CAP_MKNOD is left,
 * which no check but the device type's consults. 0, or the errno and the
 * step in *step.
 */
static int become_target(const struct target_ctx *t, const char **step)
{
	*step = "entering the target's mount namespace";
	if (setns(t->mntns, CLONE_NEWNS))
		return errno;
	*step = "entering the target's root";
	if (fchdir(t->root) || chroot("."))
		return errno;
	*step = "entering the target's working directory";
	if (t->base >= 0 && fchdir(t->base))
		return errno;
	umask(t->umask);
	*step = "taking the target's groups";
	if (setgroups((size_t)t->ngroups, t->groups))
		return errno;
	setfsgid(t->fsgid);
	setfsuid(t->fsuid);
	*step = "taking the target's fsuid and fsgid";
	if ((gid_t)setfsgid((gid_t)-1) != t->fsgid || (uid_t)setfsuid((uid_t)-1) != t->fsuid)
		return EPERM;
	*step = "dropping every capability but CAP_MKNOD";
	return keep_only_mknod() ? errno : 0;
}

/*
 * After become_target(): the node, its parent resolved with no magic link
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

__attribute__((noreturn))
static void helper(int out, pid_t supervisor, const struct mknod_as *c, const struct target_ctx *t)
{
	const char *step = "";
	int err;

	if (pdeath_follow(supervisor, SIGKILL))
		_exit(1);
	err = become_target(t, &step);
	if (!err)
		err = make_here(c->path, c->mode, c->major, c->minor, &step);
	helper_report(out, err, err ? step : "");
}

/* poll() one descriptor for ms at most, through signals (a caller's SIGCHLD handler, say) */
static int poll_bounded(struct pollfd *pfd, int ms)
{
	int64_t deadline = now_ns() + (int64_t)ms * 1000000;
	int ret;

	do {
		int64_t left = (deadline - now_ns()) / 1000000;

		ret = poll(pfd, 1, left < 0 ? 0 : (int)left);
	} while (ret < 0 && errno == EINTR);
	return ret;
}

/*
 * In the forked child, the Incus way: exec PROGRAM MKNOD_AS_HELPER_ARG with
 * what helper() would use as arguments; the program's main() hands them to
 * mknod_as_helper_main(). Descriptors stay open across the exec.
 */
__attribute__((noreturn))
static void exec_helper(const char *program, int out, pid_t supervisor, const struct mknod_as *c,
			const struct target_ctx *t)
{
	char fds[64], creds[64], node[64], groups[MAX_GROUPS * 11 + 1] = "";
	size_t used = 0;

	if (pdeath_follow(supervisor, SIGKILL))
		_exit(1);
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
	snprintf(node, sizeof(node), "%u,%u,%u", (unsigned int)c->mode, c->major, c->minor);
	execl(program, program, MKNOD_AS_HELPER_ARG, fds, creds, groups, node, c->path, (char *)NULL);
	helper_report(out, errno, "exec'ing the helper");
}

/*
 * SIGKILL pid (a helper of ours) and reap it if it goes within 1 s. One
 * stuck in an uninterruptible sleep (a FUSE server that never answers) is
 * left: it is our child, reaped by whoever waits for children later (SIGCHLD
 * and its handler in knotif-run), and the supervisor is not held with it.
 */
/* Reap pid if it has gone or goes within 1 s: true when it is gone. */
static bool reaped_within_1s(pid_t pid)
{
	int status;

	for (int i = 0; i < 100; i++) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid || (got < 0 && errno != EINTR))
			return true;
		usleep(10000);
	}
	return false;
}

static void kill_helper(pid_t pid)
{
	kill(pid, SIGKILL);
	reaped_within_1s(pid);
}

/* Run the helper (exec'ing program when not NULL) and wait, HELPER_TIMEOUT_MS at most: 0 or the errno. */
static int create_node(const struct mknod_as *c, const struct target_ctx *t, const char *program,
		       char *why, size_t why_len)
{
	struct helper_result r = { .error = EIO };
	struct pollfd pfd;
	int pipefd[2], status;
	pid_t pid, self = getpid();

	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(why, why_len, "pipe: %s", strerror(errno));
		return EIO;
	}
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		if (program)
			exec_helper(program, pipefd[1], self, c, t);
		helper(pipefd[1], self, c, t);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		snprintf(why, why_len, "fork: %s", strerror(errno));
		return EIO;
	}
	pfd = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	if (poll_bounded(&pfd, HELPER_TIMEOUT_MS) != 1) {
		close(pipefd[0]);
		kill_helper(pid);
		snprintf(why, why_len, "the helper did not finish in %d s", HELPER_TIMEOUT_MS / 1000);
		return EIO;
	}
	if (read(pipefd[0], &r, sizeof(r)) != (ssize_t)sizeof(r))
		r = (struct helper_result){ .error = EIO, .why = "the helper died" };
	r.why[sizeof(r.why) - 1] = '\0';
	close(pipefd[0]);
	/* it has answered: it exits at once (or was dead already) */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r.error)
		snprintf(why, why_len, "%s: %s", r.why, strerror(r.error));
	return r.error;
}

static int make_as(int listener, uint64_t id, const struct mknod_as *c, const char *program, char *why,
		   size_t why_len)
{
	struct target_ctx t = { .root = -1, .base = -1, .mntns = -1 };
	int ret = ctx_open(&t, c);

	/* everything read belongs to the call still waiting: not to a reused tid */
	if (notif_id_valid(listener, id)) {
		ctx_close(&t);
		return -ENOENT;
	}
	if (ret > 0) {
		snprintf(why, why_len, "the dirfd: %s", strerror(ret));
	} else if (ret < 0) {
		snprintf(why, why_len, "reading the target's /proc: %s", strerror(-ret));
		ret = EIO;
	} else {
		ret = create_node(c, &t, program, why, why_len);
	}
	ctx_close(&t);
	return ret;
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
	struct target_ctx t = { 0 };
	const char *step = "", *g;
	char *end;
	int err;

	if (argc != 5 || parse_numbers(argv[0], fds, 4) || parse_numbers(argv[1], creds, 3) ||
	    parse_numbers(argv[3], node, 3))
		return 2;
	for (g = argv[2]; *g; g = *end ? end + 1 : end) {
		if (t.ngroups == MAX_GROUPS)
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
	err = become_target(&t, &step);
	if (!err)
		err = make_here(argv[4], (mode_t)node[0], (unsigned int)node[1], (unsigned int)node[2], &step);
	helper_report((int)fds[0], err, err ? step : "");
}

/* One request to a resident helper, and its answer. */
struct resident_request {
	mode_t mode;
	unsigned int major, minor;
	char path[PATH_MAX];
};

__attribute__((noreturn))
static void resident(int sock, pid_t supervisor, const struct target_ctx *t)
{
	struct helper_result r = { 0 };
	struct resident_request q;
	const char *step = "";

	if (pdeath_follow(supervisor, SIGKILL))
		_exit(1);
	r.error = become_target(t, &step);
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

/* The answer on r->sock, HELPER_TIMEOUT_MS at most: 0 or the errno, with why. */
static int resident_answer(struct mknod_resident *r, char *why, size_t why_len)
{
	struct helper_result a;
	struct pollfd pfd = { .fd = r->sock, .events = POLLIN };

	/* a late answer would answer the next request: a helper that is late is ended */
	if (poll_bounded(&pfd, HELPER_TIMEOUT_MS) != 1) {
		snprintf(why, why_len, "the resident helper did not answer in %d s", HELPER_TIMEOUT_MS / 1000);
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
	struct mknod_as here = { .tid = tid, .dirfd = AT_FDCWD, .path = "." };
	struct target_ctx t = { .root = -1, .base = -1, .mntns = -1 };
	int ret = ctx_open(&t, &here), sv[2];
	pid_t self = getpid();

	r->pid = -1;
	r->sock = -1;
	if (notif_id_valid(listener, id)) {
		ctx_close(&t);
		return -ENOENT;
	}
	if (ret) {
		snprintf(why, why_len, "reading the target's /proc: %s", strerror(ret < 0 ? -ret : ret));
		ctx_close(&t);
		return EIO;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(why, why_len, "socketpair: %s", strerror(errno));
		ctx_close(&t);
		return EIO;
	}
	r->pid = fork();
	if (r->pid == 0) {
		close(sv[0]);
		resident(sv[1], self, &t);
	}
	close(sv[1]);
	ctx_close(&t);
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

	if (strlen(path) >= sizeof(q.path))
		return ENAMETOOLONG;
	if (r->sock < 0) {
		snprintf(why, why_len, "the resident helper was ended");
		return EIO;
	}
	strcpy(q.path, path);
	len = offsetof(struct resident_request, path) + strlen(path) + 1;
	if (send(r->sock, &q, len, MSG_NOSIGNAL) != (ssize_t)len) {
		snprintf(why, why_len, "handing the request over: %s", strerror(errno));
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
	if (r->pid > 0 && !reaped_within_1s(r->pid))
		kill_helper(r->pid);
	r->pid = -1;
}
