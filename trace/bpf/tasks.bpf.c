// SPDX-License-Identifier: GPL-2.0
/*
 * A task's slot through its life, for every source: freed at exit, moved
 * at a non-leader's execve(), handed to what a selected task forks.
 */
#include "knotif_trace.bpf.h"

/* Frees task's slot: every field zeroed before the owner, so that a new owner finds it clean. */
static __always_inline void slot_free(__u32 tid)
{
	struct kt_task *st = slot_state(tid);

	if (!st)
		return;
	st->queued = st->sent = st->replied = st->id = 0;
	st->sup_tgid = st->sup_pid = 0;
	st->nr = st->last_nr = 0;
	st->kind = st->flags = st->active = st->tracked = 0;
	st->interrupted = st->gone = st->supervisor = st->selected = 0;
	barrier();
	__sync_fetch_and_and(&st->tid, 0);	/* a full barrier, then free */
}

/* A slot is freed when its task exits (before its pid can be reused). */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	slot_free(p->pid);
	return 0;
}

/*
 * A thread other than the leader that calls execve() takes the leader's
 * pid: its state moves to the slot of that pid (the old leader exited and
 * freed it). Task storage follows the task by itself.
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, pid_t old_pid)
{
	struct kt_task *old, *st;

	if (old_pid == p->pid)
		return 0;
	old = slot_state(old_pid);
	if (!old)
		return 0;
	st = task_state_new(p);
	if (st) {
		st->selected = old->selected;
		st->supervisor = old->supervisor;
		st->tracked = old->tracked;
		st->last_nr = old->last_nr;
	}
	slot_free(old_pid);
	return 0;
}

/* With a tree filter: what a selected task forks (threads too) is selected. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	struct kt_task *pst = task_state(parent), *cst;

	if (!pst || !pst->selected)
		return 0;
	cst = task_state_new(child);
	if (cst)
		cst->selected = 1;
	return 0;
}
