// SPDX-License-Identifier: GPL-2.0
/*
 * deny-feature FEATURE -- COMMAND [ARG]...
 *
 * Runs COMMAND as if the kernel lacked FEATURE, by answering the one call
 * that enables it with EINVAL from a seccomp filter (what an older kernel
 * says): sud = prctl(PR_SET_SYSCALL_USER_DISPATCH), sync-wake-up =
 * ioctl(SECCOMP_IOCTL_NOTIF_SET_FLAGS), user-notif = every seccomp() call
 * asking about SECCOMP_RET_USER_NOTIF or a listener. Lets the tests see
 * knotif's "unsupported:" path on a kernel that has everything.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compat.h"

#define LOW32(arg) (offsetof(struct seccomp_data, args) + 8 * (arg))	/* little endian */

int main(int argc, char **argv)
{
	struct sock_filter f[16];
	struct sock_fprog prog = { .filter = f };
	int nr, arg;
	uint32_t value;
	int n = 0;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: deny-feature sud|sync-wake-up|user-notif -- COMMAND [ARG]...\n");
		return 2;
	}
	if (!strcmp(argv[1], "sud")) {
		nr = SYS_prctl, arg = 0, value = PR_SET_SYSCALL_USER_DISPATCH;
	} else if (!strcmp(argv[1], "sync-wake-up")) {
		nr = SYS_ioctl, arg = 1, value = (uint32_t)SECCOMP_IOCTL_NOTIF_SET_FLAGS;
	} else if (!strcmp(argv[1], "user-notif")) {
		/* GET_ACTION_AVAIL is how knotif asks; a pre-5.0 kernel says EOPNOTSUPP */
		nr = SYS_seccomp, arg = 0, value = SECCOMP_GET_ACTION_AVAIL;
	} else {
		fprintf(stderr, "deny-feature: unknown feature '%s'\n", argv[1]);
		return 2;
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 5);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 3);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)LOW32(arg));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_ERRNO | (nr == SYS_seccomp ? EOPNOTSUPP : EINVAL));
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		perror("deny-feature: installing the filter");
		return 1;
	}
	execvp(argv[3], &argv[3]);
	perror("deny-feature: exec");
	return 127;
}
