// SPDX-License-Identifier: GPL-2.0
#include "why.h"

#include <stdarg.h>
#include <stdio.h>

int why_fail(int err, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return err;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return err;
}
