// SPDX-License-Identifier: GPL-2.0
/*
 * Decisions taken in the kernel: no filter at all, a filter that allows,
 * and SECCOMP_RET_ERRNO. No supervisor takes part.
 */
#include <errno.h>
#include <unistd.h>

#include "common.h"
#include "compat.h"
#include "filter.h"

/* Returned by the errno filter; below MAX_ERRNO (4095), which the kernel clamps to. */
#define BENCH_ERRNO 1234

static int install(struct bench *b, uint32_t action)
{
	int ret = filter_install(&b->sys->nr, 1, action, 0);

	return ret < 0 ? ret : 0;
}

static int setup_allow(struct bench *b)
{
	return install(b, SECCOMP_RET_ALLOW);
}

static int setup_errno(struct bench *b)
{
	return install(b, SECCOMP_RET_ERRNO | BENCH_ERRNO);
}

static int check_errno(struct bench *b, long ret)
{
	if (ret == -1 && errno == BENCH_ERRNO)
		return 0;
	return bench_fail(b, "%s returned %ld (errno %d), expected -1 with errno %d", b->sys->name, ret,
			  errno, BENCH_ERRNO);
}

const struct method *const inkernel_methods[] = {
	&(const struct method){
		.name = "null",
		.kind = KIND_IN_KERNEL,
		.needs = { FEAT_COUNT },
		.call = call_syscall,
		.check = check_real,
	},
	&(const struct method){
		.name = "filter-allow",
		.kind = KIND_IN_KERNEL,
		.needs = { FEAT_SECCOMP_FILTER, FEAT_COUNT },
		.target_setup = setup_allow,
		.call = call_syscall,
		.check = check_real,
	},
	&(const struct method){
		.name = "errno",
		.kind = KIND_IN_KERNEL,
		.needs = { FEAT_RET_ERRNO, FEAT_COUNT },
		.target_setup = setup_errno,
		.call = call_syscall,
		.check = check_errno,
	},
	NULL,
};
