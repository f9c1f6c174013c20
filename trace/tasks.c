// SPDX-License-Identifier: GPL-2.0
#include "tasks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "check.h"
#include "knotif_trace.h"
#include "knotif_trace.skel.h"
#include "pdeath.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL	/* linux/pidfd.h, 6.9 */
#endif

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Thread tid joins the traced tree: its state says selected; what it forks
 * inherits that in the fork probe. Before the programs are attached nothing
 * else writes the slots, and tid gets its slot when it is free; otherwise
 * (attached, or the slot another thread's) its task storage, made through a
 * pidfd (the map's key from user space), and the programs are told to look
 * there.
 */
static int select_thread(struct knotif_trace_bpf *skel, unsigned int slot_mask, pid_t tid,
			 bool attached)
{
	int slots_fd = bpf_map__fd(skel->maps.slots), fd, err = 0;
	struct kt_task st = { .selected = 1 };
	__u32 key = (__u32)tid & slot_mask;
	struct kt_task cur;

	if (bpf_map_lookup_elem(slots_fd, &key, &cur))
		return -errno;
	if (cur.tid == (unsigned long long)tid)
		return 0;	/* selected already */
	if (!attached && !cur.tid) {
		st.tid = (unsigned long long)tid;
		return bpf_map_update_elem(slots_fd, &key, &st, BPF_ANY) ? -errno : 0;
	}
	fd = (int)syscall(SYS_pidfd_open, tid, 0);
	if (fd < 0 && errno == EINVAL)	/* not a thread-group leader */
		fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (fd < 0)
		return -errno;
	skel->bss->storage_used = true;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.tasks), &fd, &st, BPF_NOEXIST) &&
	    errno != EEXIST)
		err = -errno;
	close(fd);
	return err;
}

/*
 * Every thread of --pid's process: before the programs are attached (their
 * slots), and again after the fork probe is (a thread made meanwhile by one
 * already selected is selected there; one made by a thread not yet
 * selected shows up in the second listing). -ESRCH when none was.
 */
static int select_process(struct knotif_trace_bpf *skel, unsigned int slot_mask, pid_t pid,
			  bool attached)
{
	char path[64];
	int selected = 0, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	for (int pass = 0; pass < (attached ? 2 : 1); pass++) {
		DIR *d = opendir(path);
		struct dirent *de;

		if (!d)
			return -errno;
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);
			int e;

			if (tid <= 0)
				continue;
			e = select_thread(skel, slot_mask, tid, attached);
			if (!e)
				selected++;
			else if (e != -ESRCH && !err)
				err = e;
		}
		closedir(d);
	}
	return selected ? 0 : (err ? err : -ESRCH);
}

static int select_pid(const struct traced_tasks *t, struct knotif_trace_bpf *skel, bool attached)
{
	int err = select_process(skel, t->slot_mask, t->pid, attached);

	if (err)
		fprintf(stderr, "%s: --pid %d: %s\n", knotif_prog, (int)t->pid,
			err == -ESRCH ? "no such process" : strerror(-err));
	return err;
}

/*
 * COMMAND's process, before it runs: it waits for go_fd's byte, then
 * execs. A failed exec is not said here but sent on exec_err_fd (closed by
 * a successful one), so that the tracer says it, in the one line it says
 * about COMMAND's end.
 */
static _Noreturn void run_command(char **argv, pid_t tracer, int go_fd, int exec_err_fd)
{
	char go;
	int err;

	/* a tracer killed outright (SIGKILL: no handler) takes COMMAND with it */
	if (pdeath_follow(tracer, SIGKILL))
		_exit(127);
	if (read(go_fd, &go, 1) != 1)
		_exit(127);	/* the tracer gave up */
	execvp(argv[0], argv);
	err = errno;
	if (write(exec_err_fd, &err, sizeof(err)) != sizeof(err))
		_exit(127);	/* unsent: the tracer sees exit status 127 alone */
	_exit(127);
}

/*
 * COMMAND's process is made before the programs are attached and held
 * until tasks_start(): it joins the traced tree before it runs, so
 * everything it forks (a benchmark's supervisor and target) is followed
 * too. A tracer that gives up closes go_fd: the child exits unrun.
 */
static int fork_command(struct traced_tasks *t, struct knotif_trace_bpf *skel)
{
	int go[2] = { -1, -1 }, exec_err[2] = { -1, -1 }, err;
	pid_t child, tracer = getpid();

	/* both close on exec: the command must not inherit the tracer's pipes */
	if (pipe2(go, O_CLOEXEC) || pipe2(exec_err, O_CLOEXEC)) {
		err = -errno;
		fprintf(stderr, "%s: starting %s: %s\n", knotif_prog, t->command[0],
			strerror(-err));
		goto out;
	}
	child = fork();
	if (child == 0) {
		close(go[1]);
		run_command(t->command, tracer, go[0], exec_err[1]);
	}
	if (child < 0) {
		err = -errno;
		fprintf(stderr, "%s: starting %s: %s\n", knotif_prog, t->command[0],
			strerror(-err));
		goto out;
	}
	close_fd(&go[0]);
	close_fd(&exec_err[1]);	/* the child's alone: its exit or exec closes it */
	err = select_thread(skel, t->slot_mask, child, false);
	if (err) {
		fprintf(stderr, "%s: following %s: %s\n", knotif_prog, t->command[0],
			strerror(-err));
		close_fd(&go[1]);	/* the child exits unrun */
		waitpid(child, NULL, 0);
		goto out;
	}
	t->child = child;
	t->go_fd = go[1];
	t->exec_err_fd = exec_err[0];
	go[1] = exec_err[0] = -1;
out:
	close_fd(&go[0]);
	close_fd(&go[1]);
	close_fd(&exec_err[0]);
	close_fd(&exec_err[1]);
	return err;
}

int tasks_select(struct traced_tasks *t, struct knotif_trace_bpf *skel)
{
	int err = t->pid ? select_pid(t, skel, false) : 0;

	if (!err && t->command)
		err = fork_command(t, skel);
	return err;
}

int tasks_select_attached(struct traced_tasks *t, struct knotif_trace_bpf *skel)
{
	return t->pid ? select_pid(t, skel, true) : 0;
}

int tasks_start(struct traced_tasks *t)
{
	int err = 0;

	if (!t->command)
		return 0;
	if (write(t->go_fd, "g", 1) != 1) {
		err = -errno;
		fprintf(stderr, "%s: starting %s: %s\n", knotif_prog, t->command[0],
			strerror(-err));
	}
	close_fd(&t->go_fd);
	return err;
}

bool tasks_command_ended(struct traced_tasks *t)
{
	int status, exec_errno;

	if (t->child <= 0 || waitpid(t->child, &status, WNOHANG) != t->child)
		return false;
	t->child = 0;
	/* the child has exited: its end of the pipe is closed, and this read does not wait */
	if (read(t->exec_err_fd, &exec_errno, sizeof(exec_errno)) == sizeof(exec_errno)) {
		fprintf(stderr, "%s: cannot run %s: %s\n", knotif_prog, t->command[0],
			strerror(exec_errno));
		t->command_failed = true;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: %s failed (%s %d)\n", knotif_prog, t->command[0],
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		t->command_failed = true;
	}
	close_fd(&t->exec_err_fd);
	return true;
}

void tasks_end(struct traced_tasks *t)
{
	close_fd(&t->go_fd);	/* COMMAND never started: it exits */
	if (t->child > 0) {
		kill(t->child, SIGTERM);
		waitpid(t->child, NULL, 0);
		t->child = 0;
	}
	close_fd(&t->exec_err_fd);
}
