// SPDX-License-Identifier: GPL-2.0
#include "filter.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define KNOTIF_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define KNOTIF_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "knotif: add this architecture's AUDIT_ARCH_* value"
#endif

int filter_build(const int *nrs, size_t n, uint32_t action, struct sock_filter *out)
{
	size_t len = 0;

	if (n > FILTER_MAX_SYSCALLS)
		return -E2BIG;
	out[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						   offsetof(struct seccomp_data, arch));
	/* another ABI: skip the remaining 2n+1 instructions to ALLOW */
	out[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						   KNOTIF_AUDIT_ARCH, 0, (uint8_t)(2 * n + 1));
	out[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						   offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < n; i++) {
		out[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							   (uint32_t)nrs[i], 0, 1);
		out[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
	}
	out[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	return (int)len;
}

int filter_install(const int *nrs, size_t n, uint32_t action, unsigned int flags)
{
	struct sock_filter insns[FILTER_MAX_INSNS];
	struct sock_fprog prog;
	int len = filter_build(nrs, n, action, insns);
	long ret;

	if (len < 0)
		return len;
	prog.len = (unsigned short)len;
	prog.filter = insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	ret = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	return ret < 0 ? -errno : (int)ret;
}
