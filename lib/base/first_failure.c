// SPDX-License-Identifier: GPL-2.0
#include "first_failure.h"

#include <stdio.h>

bool first_failure_v(int *claimed, char *reason, size_t len, const char *fmt, va_list ap)
{
	if (__atomic_exchange_n(claimed, 1, __ATOMIC_ACQ_REL))
		return false;
	vsnprintf(reason, len, fmt, ap);
	return true;
}
