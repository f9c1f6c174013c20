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
