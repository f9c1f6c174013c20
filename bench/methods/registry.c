// SPDX-License-Identifier: GPL-2.0
/*
 * Every method of knotif-bench, in report order: one line per method file.
 * A line M(x) names bench/methods/x.c, which defines
 * `const struct method *const x_methods[]` ending with NULL. Nothing else
 * lists methods: the CLI, the JSON, the floor, --trace and the tests
 * (bench/tests: one ctest per name knotif-bench lists) all read this.
 */
#include <stddef.h>

#include "bench.h"

#define METHOD_FILES(M)						\
	M(inkernel)		/* null, filter-allow, errno */		\
	M(sigsys)		/* trap, sud */				\
	M(unotif)		/* unotif/... */			\
	M(agent)		/* agent/...: unotif + reading the path */	\
	M(ptrace)		/* ptrace-seccomp/..., ptrace-syscall */	\
	M(ptrace_sysemu)	/* ptrace-sysemu/emulate */		\
	M(systrap)		/* systrap/futex, systrap/spin */	\
	M(pingpong)		/* the floor: pingpong/... */

#define DECLARE(x) extern const struct method *const x##_methods[];
METHOD_FILES(DECLARE)
#define LIST(x) x##_methods,
static const struct method *const *const files[] = { METHOD_FILES(LIST) };

static const char *const kind_names[KIND_COUNT] = {
	[KIND_IN_KERNEL] = "in-kernel",
	[KIND_SIGSYS] = "sigsys",
	[KIND_UNOTIF] = "unotif",
	[KIND_PTRACE] = "ptrace",
	[KIND_SHARED_MEMORY] = "shared-memory",
	[KIND_FLOOR] = "floor",
};

const char *method_kind_name(enum method_kind k)
{
	return k < KIND_COUNT ? kind_names[k] : "?";
}

int method_count(void)
{
	int n = 0;

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++)
		for (const struct method *const *m = files[f]; *m; m++)
			n++;
	return n;
}

const struct method *method_at(int i)
{
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++)
		for (const struct method *const *m = files[f]; *m; m++)
			if (i-- == 0)
				return *m;
	return NULL;
}
