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

#if defined(__x86_64__)
#define REG_SYSCALL_NR offsetof(struct user_regs_struct, orig_rax)
#define REG_RETURN offsetof(struct user_regs_struct, rax)
#endif

static int target_setup(struct bench *b)
{
	int ret;

	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		return -errno;
	raise(SIGSTOP);		/* the tracer sets its options, then lets us go */
	if (b->m->trace_syscalls)
		return 0;
	ret = filter_install(&b->sys->nr, 1, SECCOMP_RET_TRACE, 0);
	return ret < 0 ? ret : 0;
}

static int check(struct bench *b, long ret)
{
	return b->m->reply == REPLY_EMULATE ? check_magic(b, ret) : check_real(b, ret);
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

static int supervise(struct bench *b)
{
	enum __ptrace_request resume = b->m->trace_syscalls ? PTRACE_SYSCALL : PTRACE_CONT;
	pid_t pid = b->target_pid;
	int status, ret;

	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (!WIFSTOPPED(status)) {
		harness_target_reaped(b, status);
		return 0;
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, 0,
		   PTRACE_O_TRACESECCOMP | PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL))
		return -errno;
	if (ptrace(resume, pid, 0, 0))
		return -errno;
	for (;;) {
		int sig = 0;

		if (waitpid(pid, &status, 0) != pid) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			harness_target_reaped(b, status);
			return 0;
		}
		if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			if (b->m->reply == REPLY_EMULATE) {
				ret = emulate(pid);
				if (ret)
					return ret;
			}
		} else if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status);	/* a real signal: deliver it */
		}
		if (ptrace(resume, pid, 0, sig))
			return -errno;
	}
}

const struct method method_ptrace_seccomp_emulate = {
	.name = "ptrace-seccomp/emulate",
	.needs = { FEAT_RET_TRACE, FEAT_PTRACE, FEAT_COUNT },
	.reply = REPLY_EMULATE,
	.target_setup = target_setup,
	.call = call_syscall,
	.check = check,
	.supervise = supervise,
};

const struct method method_ptrace_seccomp_continue = {
	.name = "ptrace-seccomp/continue",
	.needs = { FEAT_RET_TRACE, FEAT_PTRACE, FEAT_COUNT },
	.reply = REPLY_CONTINUE,
	.target_setup = target_setup,
	.call = call_syscall,
	.check = check,
	.supervise = supervise,
};

const struct method method_ptrace_syscall = {
	.name = "ptrace-syscall",
	.needs = { FEAT_PTRACE, FEAT_COUNT },
	.reply = REPLY_CONTINUE,
	.trace_syscalls = true,
	.target_setup = target_setup,
	.call = call_syscall,
	.check = check,
	.supervise = supervise,
};
