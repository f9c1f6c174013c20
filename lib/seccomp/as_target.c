// SPDX-License-Identifier: GPL-2.0
#include "as_target.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "clock.h"
#include "notif.h"
#include "pdeath.h"
#include "small_file.h"

void as_target_close(struct as_target *t)
{
	if (t->root >= 0)
		close(t->root);
	if (t->base >= 0)
		close(t->base);
	if (t->mntns >= 0)
		close(t->mntns);
	t->root = t->base = t->mntns = -1;
}

/* The fourth number of a "Uid:" or "Gid:" line's value (real, effective, saved, fs): 0 or -1. */
static int fourth(const char *s, unsigned long *out)
{
	char *end;

	for (int i = 0; i < 4; i++, s = end) {
		*out = strtoul(s, &end, 10);
		if (end == s)
			return -1;
	}
	return 0;
}

/*
 * fsuid, fsgid, groups and umask from /proc/TID/status (ids as this
 * namespace sees them). Read whole and matched by line prefix: a sscanf
 * per line and field cost as much as the read itself, every call.
 */
static int read_status(int proc, struct as_target *t)
{
	char buf[8192], *line, *next, *end;
	unsigned long v;
	int seen = 0;
	ssize_t n = small_file_read(proc, "status", buf, sizeof(buf));

	if (n < 0 && n != -E2BIG)
		return (int)n;
	/* whole lines only: one cut off at the end of buf (-E2BIG) could be a Groups line half read */
	for (line = buf; (next = strchr(line, '\n')); line = next) {
		*next++ = '\0';
		if (!strncmp(line, "Umask:", 6)) {
			v = strtoul(line + 6, &end, 8);
			if (end == line + 6)
				return -EPROTO;
			t->umask = (mode_t)v;
			seen |= 1;
		} else if (!strncmp(line, "Uid:", 4)) {
			if (fourth(line + 4, &v))
				return -EPROTO;
			t->fsuid = (uid_t)v;
			seen |= 2;
		} else if (!strncmp(line, "Gid:", 4)) {
			if (fourth(line + 4, &v))
				return -EPROTO;
			t->fsgid = (gid_t)v;
			seen |= 4;
		} else if (!strncmp(line, "Groups:", 7)) {
			const char *s = line + 7;

			t->ngroups = 0;
			for (v = strtoul(s, &end, 10); end != s; v = strtoul(s, &end, 10)) {
				if (t->ngroups == AS_TARGET_MAX_GROUPS)
					return -E2BIG;	/* dropping a group could grant what it denies */
				t->groups[t->ngroups++] = (gid_t)v;
				s = end;
			}
			seen |= 8;
		}
	}
	/* the four lines come first: a status past 8 KiB still has them whole */
	return seen == 15 ? 0 : n == -E2BIG ? -E2BIG : -EPROTO;
}

/* /proc/TID/cgroup, whole: 0 or -errno (-E2BIG past t->cgroups) */
static int read_cgroups(int proc, struct as_target *t)
{
	ssize_t n = small_file_read(proc, "cgroup", t->cgroups, sizeof(t->cgroups));

	return n < 0 ? (int)n : 0;
}

/*
 * The thread's root, mount namespace, the directory a relative path starts
 * at, and its credentials. 0, the errno the call itself would get for its
 * dirfd (EBADF, ENOTDIR), or -errno when the target is gone or /proc refuses.
 */
static int open_ctx(struct as_target *t, pid_t tid, int dirfd, const char *path)
{
	char name[32];
	int proc, ret = 0;

	snprintf(name, sizeof(name), "/proc/%d", (int)tid);
	proc = open(name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0)
		return -errno;
	t->root = openat(proc, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!t->no_mntns)
		t->mntns = openat(proc, "ns/mnt", O_RDONLY | O_CLOEXEC);
	if (t->root < 0 || (!t->no_mntns && t->mntns < 0)) {
		ret = -errno;
		goto out;
	}
	if (path[0] != '/') {
		if (dirfd == AT_FDCWD) {
			t->base = openat(proc, "cwd", O_PATH | O_DIRECTORY | O_CLOEXEC);
		} else if (dirfd < 0) {
			ret = EBADF;
			goto out;
		} else {
			snprintf(name, sizeof(name), "fd/%d", dirfd);
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
	if (!ret)
		ret = read_cgroups(proc, t);
out:
	close(proc);
	return ret;
}

/* the moments a helper reaches, reported with its result (it is a process of its own) */
static int64_t helper_at[AS_AT_COUNT];

static void helper_reached(enum as_target_moment m)
{
	helper_at[m] = now_ns();
}

static void reached(const struct as_target *t, enum as_target_moment m)
{
	if (t->at)
		t->at[m] = now_ns();
}

int as_target_take(struct as_target *t, int listener, uint64_t id, pid_t tid, int dirfd,
		   const char *path, char *why, size_t why_len)
{
	int ret;

	reached(t, AS_AT_START);
	ret = open_ctx(t, tid, dirfd, path);

	/* everything read belongs to the call still waiting: not to a reused tid */
	if (notif_id_valid(listener, id)) {
		as_target_close(t);
		return -ENOENT;
	}
	if (ret > 0) {
		snprintf(why, why_len, "the dirfd: %s", strerror(ret));
	} else if (ret < 0) {
		snprintf(why, why_len, "reading the target's /proc: %s", strerror(-ret));
		ret = EIO;
	}
	if (ret)
		as_target_close(t);
	reached(t, AS_AT_TAKEN);
	return ret;
}

int as_target_join_cgroups(const struct as_target *t, const char **step)
{
	struct cgroup_mount mounts[CGROUP_MAX_MOUNTS];
	char lines[sizeof(t->cgroups)], *save, *line;
	int n = cgroup_mounts(mounts, CGROUP_MAX_MOUNTS);

	*step = "reading the supervisor's cgroup mounts";
	if (n < 0)
		return -n;
	snprintf(lines, sizeof(lines), "%s", t->cgroups);
	for (line = strtok_r(lines, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *controllers, *path, procs[1024];
		const struct cgroup_mount *m;
		int fd, ret;

		*step = "reading the target's cgroups";
		if (cgroup_line(line, &controllers, &path))
			return EPROTO;
		m = cgroup_hierarchy(mounts, n, controllers);
		if (!m && !*controllers)
			continue;	/* no cgroup2 mounted here (a v1 system): nothing of it to join */
		*step = "finding the target's cgroup hierarchy";
		if (!m)
			return ENOENT;
		*step = "joining the target's cgroup";
		if (snprintf(procs, sizeof(procs), "%s%s/cgroup.procs", m->point, path) >= (int)sizeof(procs))
			return ENAMETOOLONG;
		fd = open(procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		ret = dprintf(fd, "%d\n", (int)getpid()) < 0 ? errno : 0;
		if (close(fd) && !ret)
			ret = errno;
		if (ret)
			return ret;
	}
	return 0;
}

/* The caller's capabilities become keep alone (effective and permitted). */
static int keep_only(cap_value_t keep)
{
	cap_t caps = cap_init();
	int ret;

	if (!caps)
		return -1;
	ret = cap_set_flag(caps, CAP_PERMITTED, 1, &keep, CAP_SET) ||
	      cap_set_flag(caps, CAP_EFFECTIVE, 1, &keep, CAP_SET) || cap_set_proc(caps);
	cap_free(caps);
	return ret ? -1 : 0;
}

/*
 * Path resolution is then the kernel's own from the thread's root and cwd
 * (a ".." or a symlink stops at its root as it would for the thread), and
 * the permission checks are the thread's: only keep is left, which the
 * caller's one privileged step consults (the device type, the mount).
 */
int as_target_become(const struct as_target *t, cap_value_t keep, const char **step)
{
	*step = "entering the target's mount namespace";
	if (setns(t->mntns, CLONE_NEWNS))
		return errno;
	helper_reached(AS_AT_SETNS);
	*step = "entering the target's root";
	if (fchdir(t->root) || chroot("."))
		return errno;
	*step = "entering the target's working directory";
	if (t->base >= 0 && fchdir(t->base))
		return errno;
	helper_reached(AS_AT_ROOT);
	umask(t->umask);
	*step = "taking the target's groups";
	if (setgroups((size_t)t->ngroups, t->groups))
		return errno;
	setfsgid(t->fsgid);
	setfsuid(t->fsuid);
	*step = "taking the target's fsuid and fsgid";
	if ((gid_t)setfsgid((gid_t)-1) != t->fsgid || (uid_t)setfsuid((uid_t)-1) != t->fsuid)
		return EPERM;
	helper_reached(AS_AT_CREDS);
	*step = "dropping every capability but the one the call needs";
	if (keep_only(keep))
		return errno;
	helper_reached(AS_AT_CAPS);
	return 0;
}

void as_target_report(int fd, int error, const char *why)
{
	struct as_target_result r = { .error = error };

	helper_reached(AS_AT_ACTED);
	memcpy(r.at, helper_at, sizeof(r.at));

	snprintf(r.why, sizeof(r.why), "%s", why);
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

int as_target_poll(struct pollfd *pfd, int ms)
{
	int64_t deadline = now_ns() + (int64_t)ms * 1000000;
	int ret;

	do {
		int64_t left = (deadline - now_ns()) / 1000000;

		ret = poll(pfd, 1, left < 0 ? 0 : (int)left);
	} while (ret < 0 && errno == EINTR);
	return ret;
}

bool as_target_reaped_within_1s(pid_t pid)
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

void as_target_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	as_target_reaped_within_1s(pid);
}

int as_target_start(const struct as_target *t, void (*work)(void *arg, int report_fd), void *arg,
		    struct as_target_act *act, char *why, size_t why_len)
{
	int pipefd[2];
	pid_t pid, self = getpid();

	*act = (struct as_target_act){ .pid = 0, .pidfd = -1, .fd = -1, .at = t->at };
	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(why, why_len, "pipe: %s", strerror(errno));
		return EIO;
	}
	reached(t, AS_AT_FORK);
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		const char *step = "";
		int err;

		helper_reached(AS_AT_CHILD);
		if (pdeath_follow(self, SIGKILL))
			_exit(1);
		helper_reached(AS_AT_PDEATH);
		err = as_target_join_cgroups(t, &step);
		if (err)
			as_target_report(pipefd[1], err, step);
		helper_reached(AS_AT_CGROUPS);
		work(arg, pipefd[1]);
		as_target_report(pipefd[1], EIO, "the helper returned");
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		snprintf(why, why_len, "fork: %s", strerror(errno));
		return EIO;
	}
	act->pid = pid;
	act->fd = pipefd[0];
	/* before anything reaps it (we are its only reaper, and have not looked): this process, never a reuse */
	act->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

/*
 * The helper, once it has reported, died or been killed: it exits at once,
 * or (bounded) within 1 s, else it is left to whoever reaps later (one in an
 * uninterruptible sleep). Through its pidfd, so that one a caller's own
 * waitpid(-1) reaped first is not waited for under a pid reused since (by
 * another helper still acting).
 */
static void reap(struct as_target_act *act, bool bounded)
{
	siginfo_t info;

	if (act->pidfd < 0) {
		if (act->pid > 0)
			as_target_reaped_within_1s(act->pid);	/* no pidfd (Linux < 5.3) */
	} else {
		for (int i = 0; i < 100; i++) {	/* bounded: 10 ms apart */
			int r;

			info.si_pid = 0;
			r = waitid(P_PIDFD, (id_t)act->pidfd, &info, WEXITED | (bounded ? WNOHANG : 0));
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 || info.si_pid || !bounded)
				break;
			usleep(10000);
		}
		close(act->pidfd);
	}
	act->pidfd = -1;
	act->pid = 0;
}

int as_target_finish(struct as_target_act *act, char *why, size_t why_len)
{
	struct as_target_result r = { .error = EIO };
	ssize_t n;

	do
		n = read(act->fd, &r, sizeof(r));
	while (n < 0 && errno == EINTR);
	act->reported = n == (ssize_t)sizeof(r);
	if (!act->reported)
		r = (struct as_target_result){ .error = EIO, .why = "the helper died" };
	r.why[sizeof(r.why) - 1] = '\0';
	close(act->fd);
	act->fd = -1;
	if (act->at)
		act->at[AS_AT_HEARD] = now_ns();
	reap(act, false);
	if (act->at) {
		act->at[AS_AT_REAPED] = now_ns();
		for (int m = AS_AT_CHILD; m <= AS_AT_ACTED; m++)
			act->at[m] = r.at[m];
	}
	if (r.error)
		snprintf(why, why_len, "%s: %s", r.why, strerror(r.error));
	return r.error;
}

void as_target_abandon(struct as_target_act *act)
{
	if (act->fd >= 0)
		close(act->fd);
	act->fd = -1;
	if (act->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, act->pidfd, SIGKILL, NULL, 0);
	else if (act->pid > 0)
		kill(act->pid, SIGKILL);
	reap(act, true);
}
