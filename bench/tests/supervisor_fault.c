// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=libsupervisor-fault.so KNOTIF_FAULT=WHAT knotif-bench ...
 *
 * Injects one fault into the harness's supervisor: the first process forked
 * by the process that loaded this library (the supervisor is knotif-bench's
 * child; the target is its grandchild and is left alone).
 *   kill-parent-before-pdeathsig  SIGKILL knotif-bench just before the
 *                                 supervisor arms PR_SET_PDEATHSIG: the race
 *                                 lib/seccomp/pdeath.h's re-check exists for
 *   fail-mlockall                 the supervisor's mlockall() fails (EPERM)
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pid_t origin;

__attribute__((constructor)) static void remember_origin(void)
{
	origin = getpid();
}

static int fault_is(const char *what)
{
	const char *f = getenv("KNOTIF_FAULT");

	return f && !strcmp(f, what) && getpid() != origin && getppid() == origin;
}

int prctl(int option, ...)
{
	unsigned long a[4];
	va_list ap;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_PDEATHSIG && fault_is("kill-parent-before-pdeathsig")) {
		struct timespec ms = { 0, 1000000 };

		kill(origin, SIGKILL);
		/* until the kernel has reparented us: the parent is really gone */
		for (int i = 0; i < 10000 && getppid() == origin; i++)
			nanosleep(&ms, NULL);
	}
	return (int)syscall(SYS_prctl, option, a[0], a[1], a[2], a[3]);
}

int mlockall(int flags)
{
	if (fault_is("fail-mlockall")) {
		errno = EPERM;
		return -1;
	}
	return (int)syscall(SYS_mlockall, flags);
}
