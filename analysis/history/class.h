/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_CLASS_H
#define KNOTIF_HISTORY_CLASS_H

#include <stddef.h>

#include "gbread.h"

/*
 * A run's machine class: what must match for one runner's results to be a
 * baseline for another's — CPU model, CPU count, kernel release and the
 * CPUs each placement used, e.g.
 *   "AMD EPYC, 2 CPUs, Linux 6.18.44, same 0/0, cross 0/1"
 * Host names are left out on purpose: runners of one kind are
 * interchangeable. Fields a file lacks read "?".
 */
void history_machine_class(const struct gb_file *run, char *buf, size_t len);

#endif
