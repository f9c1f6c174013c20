/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_SYSCALLS_H
#define KNOTIF_SYSCALLS_H

/*
 * System calls a benchmark may trap with --syscall: cheap, argument-free and
 * free of side effects, so the real result can be taken once before the
 * filter is installed and every later call checked against it.
 */
struct syscall_desc {
	const char *name;
	int nr;
};

/* NULL for a name outside the table */
const struct syscall_desc *syscall_lookup(const char *name);
/* "getppid, getpid, ..." for error messages */
const char *syscall_names(void);

#endif
