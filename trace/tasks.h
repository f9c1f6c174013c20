/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which tasks are traced. With --pid or COMMAND, a tree: that process's
 * threads, or COMMAND's process started under the tracer, and whatever they
 * fork from then on; else every task (--comm is the kernel side's filter,
 * not a tree). A task joins the tree by having its state say selected (in
 * its slot, or its task storage); the fork probe passes that on to its
 * children. Each function says its failure in one line and returns -errno.
 */
#ifndef KNOTIF_TRACE_TASKS_H
#define KNOTIF_TRACE_TASKS_H

#include <stdbool.h>
#include <sys/types.h>

struct knotif_trace_bpf;

struct traced_tasks {
	pid_t pid;		/* --pid, or 0 */
	char **command;		/* COMMAND and its arguments, or NULL */
	unsigned int slot_mask;	/* the slot array's size - 1 (--task-slots) */
	pid_t child;		/* COMMAND's process until it is reaped, else 0 */
	int go_fd;		/* written to: COMMAND runs; closed: it exits unrun; else -1 */
	int exec_err_fd;	/* COMMAND's exec failure (its errno), EOF when it ran; else -1 */
	bool command_failed;	/* COMMAND could not run, or ended other than with exit status 0 */
};

/*
 * Before the programs are attached, while nothing else writes the slots:
 * --pid's threads take theirs, and COMMAND's process is made and selected,
 * held until tasks_start().
 */
int tasks_select(struct traced_tasks *t, struct knotif_trace_bpf *skel);

/* Once attached: --pid's threads again, those made meanwhile. */
int tasks_select_attached(struct traced_tasks *t, struct knotif_trace_bpf *skel);

/* COMMAND, if any, runs. */
int tasks_start(struct traced_tasks *t);

/*
 * Whether COMMAND has ended (reaped; its failure said, in command_failed).
 * Without COMMAND, never.
 */
bool tasks_command_ended(struct traced_tasks *t);

/* What is left: COMMAND, held, exits unrun; running, it gets SIGTERM and is reaped. */
void tasks_end(struct traced_tasks *t);

#endif
