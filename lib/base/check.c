// SPDX-License-Identifier: GPL-2.0
#include "check.h"

const char *knotif_prog = "knotif";

void die_code(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", knotif_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}
