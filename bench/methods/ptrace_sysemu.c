// SPDX-License-Identifier: GPL-2.0
/*
 * PTRACE_SYSEMU, the interception of User-mode Linux and gVisor's ptrace
 * platform: the tracee stops once at the entry of every syscall, the kernel
 * never runs the call, and the tracer writes the result register. No
 * seccomp filter takes part.
 *
 * Only emulate makes sense: a call stopped under SYSEMU is already skipped
 * when the tracer sees it (the kernel decides at entry), so "let it run"
 * would mean the tracer re-issuing it. That is what this file does for the
 * calls that are not the benchmark's (the harness's procfs reads, exit): it
 * rewinds the tracee onto its syscall instruction and lets it pass once
 * under PTRACE_SYSCALL — two extra stops, outside the timed loop.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#if defined(__x86_64__)
#define REG_SYSCALL_NR offsetof(struct user_regs_struct, orig_rax)
#define REG_RETURN offsetof(struct user_regs_struct, rax)
#define REG_PC offsetof(struct user_regs_struct, rip)
#define SYSCALL_INSN_LEN 2	/* "syscall" is 0f 05 */
#endif

/* Where the tracee is in passing a call it must really make. */
enum pass {
	PASS_NONE,		/* under SYSEMU: every entry is emulated or passed */
	PASS_REENTER,		/* rewound; waiting for the re-issued entry */
	PASS_EXIT,		/* the call runs; waiting for its exit */
};

static int target_setup(struct bench *b)
{
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		return -errno;
	raise(SIGSTOP);		/* the tracer sets its options, then resumes us under SYSEMU */
	return 0;
}

#ifdef REG_SYSCALL_NR
/* at a SYSEMU entry stop: the call is skipped; make it return BENCH_MAGIC */
static int emulate(pid_t pid)
{
	return ptrace(PTRACE_POKEUSER, pid, REG_RETURN, BENCH_MAGIC) ? -errno : 0;
}

/* at a SYSEMU entry stop: put the tracee back on its syscall instruction with the call restored */
static int rewind_call(pid_t pid, long nr)
{
	long pc;

	errno = 0;
	pc = ptrace(PTRACE_PEEKUSER, pid, REG_PC, 0);
	if (errno)
		return -errno;
	if (ptrace(PTRACE_POKEUSER, pid, REG_PC, pc - SYSCALL_INSN_LEN) ||
	    ptrace(PTRACE_POKEUSER, pid, REG_RETURN, nr))
		return -errno;
	return 0;
}

static int syscall_op(pid_t pid)
{
	struct __ptrace_syscall_info info;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info) < 0)
		return -errno;
	return info.op;
}

/* One syscall stop: answer it, and say how to resume. */
static int on_syscall_stop(struct bench *b, pid_t pid, enum pass *pass, int *resume)
{
	long nr;
	int op, ret;

	switch (*pass) {
	case PASS_NONE:
		errno = 0;
		nr = ptrace(PTRACE_PEEKUSER, pid, REG_SYSCALL_NR, 0);
		if (errno)
			return -errno;
		if (nr == b->sys->nr) {
			*resume = PTRACE_SYSEMU;
			return emulate(pid);
		}
		ret = rewind_call(pid, nr);
		*pass = PASS_REENTER;
		*resume = PTRACE_SYSCALL;
		return ret;
	case PASS_REENTER:
		/* the skipped call may report an exit stop first: it is not ours */
		op = syscall_op(pid);
		if (op < 0)
			return op;
		if (op == PTRACE_SYSCALL_INFO_ENTRY)
			*pass = PASS_EXIT;
		*resume = PTRACE_SYSCALL;
		return 0;
	case PASS_EXIT:
		*pass = PASS_NONE;
		*resume = PTRACE_SYSEMU;
		return 0;
	}
	return -EINVAL;
}
#else
static int on_syscall_stop(struct bench *b, pid_t pid, enum pass *pass, int *resume)
{
	return -EOPNOTSUPP;	/* set the registers for this architecture */
}
#endif

static int on_stop(struct bench *b, int status, int *resume, void *ctx)
{
	if (WSTOPSIG(status) != (SIGTRAP | 0x80))
		return WSTOPSIG(status);	/* a real signal: deliver it */
	return on_syscall_stop(b, b->target_pid, ctx, resume);
}

static int supervise(struct bench *b)
{
	enum pass pass = PASS_NONE;

	return tracer_run(b, PTRACE_O_TRACESYSGOOD, PTRACE_SYSEMU, on_stop, &pass);
}

const struct method *const ptrace_sysemu_methods[] = {
	&(const struct method){
		.name = "ptrace-sysemu/emulate",
		.kind = KIND_PTRACE,
		.needs = { FEAT_PTRACE, FEAT_COUNT },
		.supervise = supervise,		/* the tracer; no filter in the target */
		.target_setup = target_setup,
		.call = call_syscall,
		.check = check_magic,
	},
	NULL,
};
