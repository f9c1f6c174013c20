// SPDX-License-Identifier: GPL-2.0
/*
 * The target-side checks are what prove a method intercepted for real: a
 * result the kernel would have given must fail check_magic, and a wrong
 * result must fail check_real, each with a message saying what came back.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"

static int failures;

static void expect(struct bench *b, const char *what, int got, int want, const char *msg_part)
{
	if ((got == 0) != (want == 0) || (msg_part && !strstr(b->shared->error, msg_part))) {
		printf("not ok: %s: returned %d, message '%s'\n", what, got, b->shared->error);
		failures++;
	}
	b->shared->error[0] = 0;
	b->shared->fail_claimed = 0;	/* the next expectation may fail anew */
}

int main(void)
{
	static const struct syscall_desc *sys;
	struct bench b;

	memset(&b, 0, sizeof(b));
	b.shared = mmap(NULL, sizeof(*b.shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (b.shared == MAP_FAILED)
		return 1;
	sys = syscall_lookup("getppid");
	b.sys = sys;
	b.real_value = 4242;
	expect(&b, "check_magic(magic)", check_magic(&b, BENCH_MAGIC), 0, NULL);
	expect(&b, "check_magic(real value)", check_magic(&b, 4242), -1, "was not intercepted");
	expect(&b, "check_real(real value)", check_real(&b, 4242), 0, NULL);
	expect(&b, "check_real(magic)", check_real(&b, BENCH_MAGIC), -1, "the real result is 4242");
	/* the first failure is the one reported */
	check_real(&b, 1);
	check_real(&b, 2);
	if (!strstr(b.shared->error, "returned 1,")) {
		printf("not ok: first failure was overwritten: '%s'\n", b.shared->error);
		failures++;
	}
	printf("%s\n", failures ? "FAIL" : "ok: checks reject uninterrupted and wrong results");
	return failures ? 1 : 0;
}
