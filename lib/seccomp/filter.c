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

/* The low 32 bits of argument i: seccomp_data holds them as 64-bit values */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#else
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#endif

int filter_build_rules(const struct filter_rule *rules, size_t n, uint32_t action,
		       struct sock_filter *out)
{
	size_t len = 0;

	if (n > FILTER_MAX_SYSCALLS)
		return -E2BIG;
	for (size_t i = 0; i < n; i++)
		if (rules[i].nvalues < 0 || rules[i].nvalues > FILTER_RULE_VALUES ||
		    rules[i].arg < 0 || rules[i].arg > 5)
			return -EINVAL;
	out[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						   offsetof(struct seccomp_data, arch));
	out[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KNOTIF_AUDIT_ARCH, 0, 0);
	out[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						   offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < n; i++) {
		const struct filter_rule *r = &rules[i];
		int k = r->nvalues;

		if (!k) {
			out[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
								   (uint32_t)r->nr, 0, 1);
			out[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
			continue;
		}
		/*
		 * Another call: on to the next rule with A still the number.
		 * This one: A becomes the argument, so the block ends in a
		 * return either way.
		 */
		out[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							   (uint32_t)r->nr, 0, (uint8_t)(4 + k));
		out[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(r->arg));
		out[len++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, r->mask);
		for (int j = 0; j < k; j++)
			out[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
								   r->values[j], (uint8_t)(k - j), 0);
		out[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		out[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
	}
	out[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* another ABI: jump over everything after the number's load to the last ALLOW */
	if (len - 3 > 255)
		return -E2BIG;
	out[1].jf = (uint8_t)(len - 3);
	return (int)len;
}

int filter_build(const int *nrs, size_t n, uint32_t action, struct sock_filter *out)
{
	struct filter_rule rules[FILTER_MAX_SYSCALLS];

	if (n > FILTER_MAX_SYSCALLS)
		return -E2BIG;
	for (size_t i = 0; i < n; i++)
		rules[i] = (struct filter_rule){ .nr = nrs[i] };
	return filter_build_rules(rules, n, action, out);
}

static int install(struct sock_filter *insns, int len, unsigned int flags)
{
	struct sock_fprog prog = { .len = (unsigned short)len, .filter = insns };
	long ret;

	if (len < 0)
		return len;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	ret = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	return ret < 0 ? -errno : (int)ret;
}

int filter_install(const int *nrs, size_t n, uint32_t action, unsigned int flags)
{
	struct sock_filter insns[FILTER_MAX_INSNS];

	return install(insns, filter_build(nrs, n, action, insns), flags);
}

int filter_install_rules(const struct filter_rule *rules, size_t n, uint32_t action,
			 unsigned int flags)
{
	struct sock_filter insns[FILTER_RULES_MAX_INSNS(FILTER_MAX_SYSCALLS)];

	return install(insns, filter_build_rules(rules, n, action, insns), flags);
}
