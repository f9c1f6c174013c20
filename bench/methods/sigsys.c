// SPDX-License-Identifier: GPL-2.0
/*
 * Interception inside the target: the kernel raises SIGSYS and a handler
 * writes the emulated result into the interrupted context. SECCOMP_RET_TRAP
 * chooses the syscall with a filter; Syscall User Dispatch traps every
 * syscall while a selector byte says BLOCK.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <unistd.h>

#include "common.h"
#include "compat.h"
#include "filter.h"

static volatile char sud_selector = SYSCALL_DISPATCH_FILTER_ALLOW;

static void set_result(void *uctx, long value)
{
	ucontext_t *uc = uctx;

#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RAX] = value;
#elif defined(__aarch64__)
	uc->uc_mcontext.regs[0] = value;
#else
#error "knotif: set the syscall return register for this architecture"
#endif
}

static void on_sigsys(int sig, siginfo_t *info, void *uctx)
{
	/* rt_sigreturn is a syscall too: let it through */
	sud_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	set_result(uctx, BENCH_MAGIC);
}

static int catch_sigsys(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGSYS, &sa, NULL) ? -errno : 0;
}

static int setup_trap(struct bench *b)
{
	int ret = catch_sigsys();

	if (ret)
		return ret;
	ret = filter_install(&b->sys->nr, 1, SECCOMP_RET_TRAP, 0);
	return ret < 0 ? ret : 0;
}

static int setup_sud(struct bench *b)
{
	int ret = catch_sigsys();

	if (ret)
		return ret;
	/* no always-allowed code range: the selector alone decides */
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0, &sud_selector))
		return -errno;
	return 0;
}

static long call_sud(struct bench *b)
{
	sud_selector = SYSCALL_DISPATCH_FILTER_BLOCK;
	return syscall(b->sys->nr);	/* the handler sets the selector back to ALLOW */
}

const struct method *const sigsys_methods[] = {
	&(const struct method){
		.name = "trap",
		.kind = KIND_SIGSYS,
		.needs = { FEAT_RET_TRAP, FEAT_COUNT },
		.target_setup = setup_trap,
		.call = call_syscall,
		.check = check_magic,
	},
	&(const struct method){
		.name = "sud",
		.kind = KIND_SIGSYS,
		.needs = { FEAT_SUD, FEAT_COUNT },
		.target_setup = setup_sud,
		.call = call_sud,
		.check = check_magic,
	},
	NULL,
};
