/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_WHY_H
#define KNOTIF_WHY_H

#include <stddef.h>

/*
 * Library functions return -errno and leave the message to the program;
 * when the errno alone would not tell a person what to fix, they also
 * write one line into the caller's why buffer. why_fail does both:
 *   return why_fail(-EINVAL, why, len, "%s: no \"benchmarks\" array", path);
 */
__attribute__((format(printf, 4, 5)))
int why_fail(int err, char *why, size_t len, const char *fmt, ...);

#endif
