// SPDX-License-Identifier: GPL-2.0
#include "keeper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "descendants.h"
#include "pdeath.h"
#include "supervise.h"

int keeper_unshare(void)
{
	int own = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);

	/*
	 * CAP_SYS_ADMIN only. Without it a user namespace would be needed
	 * as well, and that changes more than pids: every owner it does not
	 * map reads as nobody, the command's supplementary groups as
	 * nogroup, and chown to them fails.
	 */
	if (own >= 0 && unshare(CLONE_NEWPID) == 0)
		return own;
	if (own >= 0)
		close(own);
	return -1;
}

void keeper_forked(int own_ns)
{
	if (own_ns < 0)
		return;
	check_sys(setns(own_ns, CLONE_NEWPID), "setns back to our own PID namespace");
	close(own_ns);
}

/* _exit(), not exit(): knotif-run's stdio buffers are not ours to flush */
__attribute__((noreturn))
static void keeper_fail(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", knotif_prog, what, strerror(errno));
	_exit(1);
}

/*
 * A /proc of the namespace, so that the command's /proc/$$ is itself (and
 * lib/pdeath's parent check works in it), in a mount namespace of ours.
 * The /proc it goes over is made a slave first: a mount on a shared one
 * would propagate to the host's /proc.
 */
static void own_proc(void)
{
	if (unshare(CLONE_NEWNS) || mount(NULL, "/proc", NULL, MS_REC | MS_SLAVE, NULL) ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		keeper_fail("mounting /proc for the command's pid namespace");
}

/* Reaps what has exited, the main process's status to knotif-run; false once no child is left. */
static bool reap(const struct keeper *k, pid_t command)
{
	int status;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid == 0)
			return true;
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return false;	/* ECHILD: nothing of the tree is left */
		if (pid != command)
			continue;
		/* 4 bytes to a pipe go whole or not at all */
		if (write(k->status_fd, &status, sizeof(status)) != sizeof(status))
			continue;	/* EPIPE: knotif-run is gone, and poll() says so */
	}
}

void keeper_run(const struct keeper *k)
{
	struct signalfd_siginfo si;
	struct pollfd fds[2];
	sigset_t all, chld;
	int64_t give_up = 0;
	pid_t command;

	/*
	 * Signals are the command's business: ^C at a terminal reaches us
	 * too, and knotif-run passes some to the whole tree. The command
	 * gets the mask knotif-run was given back in run_child().
	 */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (k->own_pidns) {
		/* the parent check reads /proc/self/stat: before own_proc() replaces /proc */
		if (pdeath_follow(k->supervisor, SIGKILL))
			_exit(1);
		own_proc();
	} else if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		/* the tree's orphans come to us: it stays ours to find and kill */
		keeper_fail("PR_SET_CHILD_SUBREAPER");
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	fds[0].fd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	fds[0].events = POLLIN;
	if (fds[0].fd < 0)
		keeper_fail("signalfd");
	/* no events asked: POLLERR alone, once knotif-run (the only reader) is gone */
	fds[1] = (struct pollfd){ .fd = k->status_fd };
	command = fork();
	if (command < 0)
		keeper_fail("fork");
	if (command == 0)
		return;
	close(k->sock);
	for (;;) {
		if (!reap(k, command))
			_exit(0);
		if (poll(fds, 2, give_up ? 100 : -1) < 0 && errno != EINTR)
			keeper_fail("poll");
		while (read(fds[0].fd, &si, sizeof(si)) > 0)
			;
		if (fds[1].fd >= 0 && fds[1].revents) {
			/* knotif-run is gone: its command must not run on, every trapped call failing */
			if (k->own_pidns)
				_exit(1);	/* the kernel kills the namespace with its init */
			fds[1].fd = -1;
			give_up = now_ns() + RUN_GRACE_NS;	/* for a tree sent SIGKILL to leave */
		}
		if (give_up) {
			kill_descendants(getpid());
			if (now_ns() >= give_up)
				_exit(1);
		}
	}
}
