// SPDX-License-Identifier: GPL-2.0
#include "syscalls.h"

#include <string.h>
#include <sys/syscall.h>

static const struct syscall_desc table[] = {
	{ "getppid", SYS_getppid },
	{ "getpid", SYS_getpid },
	{ "gettid", SYS_gettid },
	{ "getuid", SYS_getuid },
	{ "geteuid", SYS_geteuid },
	{ "getgid", SYS_getgid },
	{ "getegid", SYS_getegid },
	{ "getpgrp", SYS_getpgrp },
};

const struct syscall_desc *syscall_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const char *syscall_names(void)
{
	return "getppid, getpid, gettid, getuid, geteuid, getgid, getegid, getpgrp";
}
