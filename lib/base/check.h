/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Check-and-die helpers for programs. They are never compiled out (unlike
 * assert), so a side effect inside a check is safe. Library code returns
 * -errno instead and leaves the message to the program.
 */
#ifndef KNOTIF_CHECK_H
#define KNOTIF_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit codes shared by every knotif program. */
enum {
	EXIT_USAGE = 2,		/* bad flag or value */
};

extern const char *knotif_prog;	/* set by main(); prefixes every message */

__attribute__((format(printf, 2, 3), noreturn))
void die_code(int code, const char *fmt, ...);

/* One line on stderr, exit 1. */
#define die(...) die_code(1, __VA_ARGS__)
/* One line on stderr, exit 2: the user gave us something we cannot use. */
#define usage_error(...) die_code(EXIT_USAGE, __VA_ARGS__)

/* errno-style result of a library call (negative errno) turned into a fatal message */
#define check_ret(expr, what)                                                  \
	do {                                                                   \
		long check_ret_ = (long)(expr);                                \
		if (check_ret_ < 0)                                            \
			die("%s: %s", (what), strerror((int)-check_ret_));     \
	} while (0)

/* libc-style call (-1 and errno) that must succeed */
#define check_sys(expr, what)                                                  \
	do {                                                                   \
		if ((long)(expr) == -1)                                        \
			die("%s: %s", (what), strerror(errno));                \
	} while (0)

#endif
