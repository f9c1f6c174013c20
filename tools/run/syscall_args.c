// SPDX-License-Identifier: GPL-2.0
#include "syscall_args.h"

#include <string.h>
#include <sys/syscall.h>

#define A(n, k) { n, ARG_##k }

/*
 * Calls a container runtime's seccomp agent typically watches: opening and
 * creating files, running programs, reaching the network, changing the
 * file tree. Only what exists on this architecture is listed.
 */
static const struct syscall_args table[] = {
#ifdef SYS_open
	{ "open", SYS_open, { A("pathname", PATH), A("flags", FLAGS), A("mode", MODE) } },
#endif
	{ "openat", SYS_openat, { A("dirfd", DIRFD), A("pathname", PATH), A("flags", FLAGS), A("mode", MODE) } },
	{ "openat2", SYS_openat2, { A("dirfd", DIRFD), A("pathname", PATH), A("how", PTR), A("size", LEN) } },
#ifdef SYS_creat
	{ "creat", SYS_creat, { A("pathname", PATH), A("mode", MODE) } },
#endif
	{ "execve", SYS_execve, { A("pathname", PATH), A("argv", ARGV), A("envp", PTR) } },
	{ "execveat", SYS_execveat, { A("dirfd", DIRFD), A("pathname", PATH), A("argv", ARGV),
				      A("envp", PTR), A("flags", FLAGS) } },
	{ "connect", SYS_connect, { A("sockfd", FD), A("addr", SOCKADDR), A("addrlen", LEN) } },
	{ "bind", SYS_bind, { A("sockfd", FD), A("addr", SOCKADDR), A("addrlen", LEN) } },
	{ "sendto", SYS_sendto, { A("sockfd", FD), A("buf", PTR), A("len", LEN), A("flags", FLAGS),
				  A("dest_addr", SOCKADDR), A("addrlen", LEN) } },
	{ "socket", SYS_socket, { A("domain", INT), A("type", FLAGS), A("protocol", INT) } },
	{ "listen", SYS_listen, { A("sockfd", FD), A("backlog", INT) } },
#ifdef SYS_unlink
	{ "unlink", SYS_unlink, { A("pathname", PATH) } },
#endif
	{ "unlinkat", SYS_unlinkat, { A("dirfd", DIRFD), A("pathname", PATH), A("flags", FLAGS) } },
#ifdef SYS_mkdir
	{ "mkdir", SYS_mkdir, { A("pathname", PATH), A("mode", MODE) } },
#endif
	{ "mkdirat", SYS_mkdirat, { A("dirfd", DIRFD), A("pathname", PATH), A("mode", MODE) } },
#ifdef SYS_rename
	{ "rename", SYS_rename, { A("oldpath", PATH), A("newpath", PATH) } },
#endif
	{ "renameat2", SYS_renameat2, { A("olddirfd", DIRFD), A("oldpath", PATH), A("newdirfd", DIRFD),
					A("newpath", PATH), A("flags", FLAGS) } },
	{ "symlinkat", SYS_symlinkat, { A("target", PATH), A("newdirfd", DIRFD), A("linkpath", PATH) } },
#ifdef SYS_mknod
	{ "mknod", SYS_mknod, { A("pathname", PATH), A("mode", MODE), A("dev", DEV) } },
#endif
	{ "mknodat", SYS_mknodat, { A("dirfd", DIRFD), A("pathname", PATH), A("mode", MODE), A("dev", DEV) } },
	{ "sysinfo", SYS_sysinfo, { A("info", PTR) } },
	{ "chdir", SYS_chdir, { A("path", PATH) } },
#ifdef SYS_access
	{ "access", SYS_access, { A("pathname", PATH), A("mode", INT) } },
#endif
	{ "faccessat", SYS_faccessat, { A("dirfd", DIRFD), A("pathname", PATH), A("mode", INT) } },
	{ "faccessat2", SYS_faccessat2, { A("dirfd", DIRFD), A("pathname", PATH), A("mode", INT),
					  A("flags", FLAGS) } },
	{ "newfstatat", SYS_newfstatat, { A("dirfd", DIRFD), A("pathname", PATH), A("statbuf", PTR),
					  A("flags", FLAGS) } },
	{ "statx", SYS_statx, { A("dirfd", DIRFD), A("pathname", PATH), A("flags", FLAGS),
				A("mask", FLAGS), A("statxbuf", PTR) } },
	{ "readlinkat", SYS_readlinkat, { A("dirfd", DIRFD), A("pathname", PATH), A("buf", PTR),
					  A("bufsiz", LEN) } },
	{ "fchmodat", SYS_fchmodat, { A("dirfd", DIRFD), A("pathname", PATH), A("mode", MODE) } },
	{ "mount", SYS_mount, { A("source", PATH), A("target", PATH), A("filesystemtype", PATH),
				A("mountflags", FLAGS), A("data", PATH) } },
	{ "ptrace", SYS_ptrace, { A("request", INT), A("pid", INT), A("addr", PTR), A("data", PTR) } },
	{ "kill", SYS_kill, { A("pid", INT), A("sig", INT) } },
	{ "getppid", SYS_getppid, { { 0 } } },
};

#undef A

int syscall_args_count(void)
{
	return (int)(sizeof(table) / sizeof(table[0]));
}

const struct syscall_args *syscall_args_at(int i)
{
	return i >= 0 && i < syscall_args_count() ? &table[i] : NULL;
}

const struct syscall_args *syscall_args_by_name(const char *name)
{
	for (int i = 0; i < syscall_args_count(); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const struct syscall_args *syscall_args_by_nr(int nr)
{
	for (int i = 0; i < syscall_args_count(); i++)
		if (table[i].nr == nr)
			return &table[i];
	return NULL;
}
