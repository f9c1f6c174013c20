/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_FILTER_H
#define KNOTIF_FILTER_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/* Longest program filter_build() writes: 4 fixed instructions + 2 per syscall. */
#define FILTER_MAX_SYSCALLS 64
#define FILTER_MAX_INSNS (4 + 2 * FILTER_MAX_SYSCALLS)

/*
 * One system call the filter acts on: always (nvalues 0), or only when the
 * low 32 bits of argument arg, masked with mask, equal one of values[] (a
 * mode's S_IFMT bits, say). A call it names whose argument matches none is
 * allowed.
 */
#define FILTER_RULE_VALUES 4
struct filter_rule {
	int nr;
	int arg;
	uint32_t mask;
	uint32_t values[FILTER_RULE_VALUES];
	int nvalues;
};
/* Longest program filter_build_rules() writes for n rules */
#define FILTER_RULES_MAX_INSNS(n) (4 + (5 + FILTER_RULE_VALUES) * (n))

/*
 * As filter_build(), for rules: writes at most FILTER_RULES_MAX_INSNS(n)
 * instructions. -E2BIG past FILTER_MAX_SYSCALLS rules, -EINVAL for a rule
 * with more than FILTER_RULE_VALUES values or an argument outside 0..5.
 */
int filter_build_rules(const struct filter_rule *rules, size_t n, uint32_t action,
		       struct sock_filter *out);
/* As filter_install(), for rules. */
int filter_install_rules(const struct filter_rule *rules, size_t n, uint32_t action,
			 unsigned int flags);

/*
 * Classic BPF program: syscalls in nrs[] get `action`, every other syscall
 * (and any other architecture) is allowed. Returns the instruction count, or
 * -E2BIG when nrs[] has more than FILTER_MAX_SYSCALLS entries.
 */
int filter_build(const int *nrs, size_t n, uint32_t action, struct sock_filter *out);

/*
 * Sets no_new_privs (so no CAP_SYS_ADMIN is needed) and installs the filter
 * for the calling thread. Returns the listener fd when flags carries
 * SECCOMP_FILTER_FLAG_NEW_LISTENER, 0 otherwise, or -errno.
 */
int filter_install(const int *nrs, size_t n, uint32_t action, unsigned int flags);

#endif
