// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace interception: SECCOMP_RET_TRACE stops the target only for the
 * filtered syscall (PTRACE_O_TRACESECCOMP); PTRACE_SYSCALL stops it at the
 * entry and exit of every syscall, the way classic strace does. The
 * supervisor is the target's parent and tracer.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "compat.h"
#include "filter.h"
#include "harness.h"

struct ptrace_variant {
	enum reply_kind reply;
	bool trace_syscalls;	/* PTRACE_SYSCALL instead of seccomp stops */
};

#if defined(__x86_64__)
#define REG_SYSCALL_NR offsetof(struct user_regs_struct, orig_rax)
#define REG_RETURN offsetof(struct user_regs_struct, rax)
#endif

static int target_setup(struct bench *b)
{
	const struct ptrace_variant *v = b->m->variant;
	int ret;

	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		return -errno;
	raise(SIGSTOP);		/* the tracer sets its options, then lets us go */
	if (v->trace_syscalls)
		return 0;
	ret = filter_install(&b->sys->nr, 1, SECCOMP_RET_TRACE, 0);
	return ret < 0 ? ret : 0;
}

static int check(struct bench *b, long ret)
{
	const struct ptrace_variant *v = b->m->variant;

	return v->reply == REPLY_EMULATE ? check_magic(b, ret) : check_real(b, ret);
}

/* Skip the syscall and make it return BENCH_MAGIC. */
static int emulate(pid_t pid)
{
#ifdef REG_SYSCALL_NR
	if (ptrace(PTRACE_POKEUSER, pid, REG_SYSCALL_NR, -1L) ||
	    ptrace(PTRACE_POKEUSER, pid, REG_RETURN, BENCH_MAGIC))
		return -errno;
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

static int on_stop(struct bench *b, int status, int *resume, void *ctx)
{
	const struct ptrace_variant *v = b->m->variant;

	if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8)))
		return v->reply == REPLY_EMULATE ? emulate(b->target_pid) : 0;
	if (WSTOPSIG(status) == (SIGTRAP | 0x80))
		return 0;		/* PTRACE_SYSCALL's entry or exit: let it run */
	return WSTOPSIG(status);	/* a real signal: deliver it */
}

static int supervise(struct bench *b)
{
	const struct ptrace_variant *v = b->m->variant;

	return tracer_run(b, PTRACE_O_TRACESECCOMP | PTRACE_O_TRACESYSGOOD,
			  v->trace_syscalls ? PTRACE_SYSCALL : PTRACE_CONT, on_stop, NULL);
}

/* knotif-trace follows seccomp's ptrace events, not plain syscall stops */
const struct method *const ptrace_methods[] = {
	&(const struct method){
		.name = "ptrace-seccomp/emulate",
		.kind = KIND_PTRACE,
		.trace_kind = "ptrace",
		.needs = { FEAT_RET_TRACE, FEAT_PTRACE, FEAT_COUNT },
		.variant = &(const struct ptrace_variant){ .reply = REPLY_EMULATE },
		.target_setup = target_setup,
		.call = call_syscall,
		.check = check,
		.supervise = supervise,
	},
	&(const struct method){
		.name = "ptrace-seccomp/continue",
		.kind = KIND_PTRACE,
		.trace_kind = "ptrace",
		.needs = { FEAT_RET_TRACE, FEAT_PTRACE, FEAT_COUNT },
		.variant = &(const struct ptrace_variant){ .reply = REPLY_CONTINUE },
		.target_setup = target_setup,
		.call = call_syscall,
		.check = check,
		.supervise = supervise,
	},
	&(const struct method){
		.name = "ptrace-syscall",
		.kind = KIND_PTRACE,
		.needs = { FEAT_PTRACE, FEAT_COUNT },
		.variant = &(const struct ptrace_variant){ .reply = REPLY_CONTINUE, .trace_syscalls = true },
		.target_setup = target_setup,
		.call = call_syscall,
		.check = check,
		.supervise = supervise,
	},
	NULL,
};
