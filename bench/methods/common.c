// SPDX-License-Identifier: GPL-2.0
#include "common.h"

#include <unistd.h>

long call_syscall(struct bench *b)
{
	return syscall(b->sys->nr);
}

int check_real(struct bench *b, long ret)
{
	if (ret == b->real_value)
		return 0;
	return bench_fail(b, "%s returned %ld, the real result is %ld", b->sys->name, ret, b->real_value);
}

int check_magic(struct bench *b, long ret)
{
	if (ret == BENCH_MAGIC)
		return 0;
	return bench_fail(b, "%s returned %ld, not the emulated %ld: the call was not intercepted",
			  b->sys->name, ret, BENCH_MAGIC);
}

const struct method *const methods[] = {
	&method_null,
	&method_filter_allow,
	&method_errno,
	&method_trap,
	&method_sud,
	&method_unotif_async_emulate,
	&method_unotif_async_continue,
	&method_unotif_async_addfd,
	&method_unotif_sync_emulate,
	&method_unotif_sync_continue,
	&method_unotif_sync_addfd,
	&method_unotif_rw_emulate,
	&method_unotif_ptrace_listener_emulate,
	&method_ptrace_seccomp_emulate,
	&method_ptrace_seccomp_continue,
	&method_ptrace_syscall,
	&method_pingpong_pipe,
	&method_pingpong_futex,
};
const int method_count = sizeof(methods) / sizeof(methods[0]);
