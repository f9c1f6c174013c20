// SPDX-License-Identifier: GPL-2.0
/*
 * knotif-trace's kernel side: follows every seccomp user notification (and
 * every SECCOMP_RET_TRACE ptrace stop) from queued to resumed, and
 * aggregates here: exact transition counts and per-phase histograms, a
 * copy per CPU, that user space reads at exit or every --interval. A record
 * per notification goes to the ring buffer only when --events asks for it.
 *
 * Four probe sources, a file each in this folder (done.bpf.c,
 * tracepoint.bpf.c, sched.bpf.c, fentry.bpf.c), picked by source.c before
 * load (the losers' programs get autoload off; tasks.bpf.c serves all):
 *  - done: seccomp:seccomp_notif_done of the patched kernel, one event per
 *    notification with the kernel's own moments: no state, no clock here;
 *  - tracepoint: seccomp:seccomp_notif_* transitions of the patched kernel,
 *    exact states;
 *  - sched: stock tracepoints only. Queued = the target, inside the trapped
 *    syscall, wakes someone or goes to sleep (whichever comes first); SENT =
 *    the supervisor's NOTIF_RECV ioctl returns naming the target; REPLIED =
 *    the supervisor, inside NOTIF_SEND (or ADDFD with FLAG_SEND), wakes the
 *    target; resumed = the target's syscall exit. The ptrace timeline is
 *    built the same way from the stop, the tracer's wait4() and its resuming
 *    ptrace() request.
 *  - fentry: the sched source, with queued taken exactly at __seccomp_filter.
 *
 * Per-notification state lives in the target's slot of an array indexed by
 * its thread id (found from current, from a woken task, or from the pid an
 * event names, in one inlined array lookup: no helper call, no task
 * reference), with task local storage only for a task whose slot another
 * live task holds. A task we do not know has no slot, and every probe leaves
 * after that one lookup. x86-64 only: syscall numbers and pt_regs fields
 * below are that ABI's.
 */
#include "knotif_trace.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * The sources and the tasks' lifecycle, a file each, compiled in this one
 * unit rather than linked (bpftool gen object): Debian 12's libbpf (1.1)
 * cannot link two objects that call the same kfunc ("failed to resolve
 * size of underlying type"; "libbpf: do not resolve size on duplicate
 * FUNCs" fixed it upstream in 2024), and pid_state() calls
 * bpf_task_from_pid() for sched.bpf.c and tracepoint.bpf.c alike. The
 * build also compiles each file alone, so that none leans on another's
 * helpers. The order is the programs' order in the object (and in
 * --prog-stats).
 */
#include "tasks.bpf.c"
#include "sched.bpf.c"
#include "fentry.bpf.c"
#include "tracepoint.bpf.c"
#include "done.bpf.c"
