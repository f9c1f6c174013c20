/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_SYSCALL_ARGS_H
#define KNOTIF_RUN_SYSCALL_ARGS_H

#include <stdint.h>

/*
 * The system calls knotif-run can intercept, and how to read each one's
 * arguments: which are paths or socket addresses in the target's memory
 * (read through /proc/PID/mem), which are descriptors, flags or modes.
 */
enum arg_kind {
	ARG_NONE,	/* end of the argument list */
	ARG_INT,	/* signed decimal */
	ARG_FD,		/* descriptor */
	ARG_DIRFD,	/* descriptor or AT_FDCWD */
	ARG_FLAGS,	/* hexadecimal */
	ARG_MODE,	/* octal */
	ARG_LEN,	/* unsigned decimal */
	ARG_PTR,	/* address, not followed */
	ARG_PATH,	/* NUL-terminated string in the target */
	ARG_ARGV,	/* NULL-terminated array of strings in the target */
	ARG_SOCKADDR,	/* struct sockaddr in the target; its length is the next argument */
	ARG_DEV,	/* a device number (the kernel's u32 encoding): MAJOR:MINOR */
};

#define SYSCALL_MAX_ARGS 6

/* The kernel's device number encoding (new_decode_dev()): mknod's dev argument */
static inline unsigned int dev_major(uint32_t dev)
{
	return (dev & 0xfff00) >> 8;
}

static inline unsigned int dev_minor(uint32_t dev)
{
	return (dev & 0xff) | ((dev >> 12) & 0xfff00);
}

struct syscall_arg {
	const char *name;	/* the man page's name, also the JSON key */
	enum arg_kind kind;
};

struct syscall_args {
	const char *name;
	int nr;
	struct syscall_arg args[SYSCALL_MAX_ARGS];
};

/* NULL for a name outside the table */
const struct syscall_args *syscall_args_by_name(const char *name);
/* NULL for a number outside the table */
const struct syscall_args *syscall_args_by_nr(int nr);
/* entry i of the table, NULL past its end (for listing and counting) */
const struct syscall_args *syscall_args_at(int i);
int syscall_args_count(void);

#endif
