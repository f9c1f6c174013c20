/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_FIRST_FAILURE_H
#define KNOTIF_FIRST_FAILURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The first failure of several processes sharing one mapping: the one
 * whose atomic exchange of *claimed wins writes the reason (fmt, ap) into
 * reason[len]; the others leave it alone, so two failing at once can
 * neither tear the message nor both skip it. True for the winner, who
 * publishes "failed" after this if readers poll for it.
 */
bool first_failure_v(int *claimed, char *reason, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

#endif
