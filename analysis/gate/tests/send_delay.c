// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for the gate's end-to-end test: a real slowdown of a
 * seccomp supervisor, not an edited number. Every SECCOMP_IOCTL_NOTIF_SEND
 * first spins KNOTIF_SEND_DELAY_NS nanoseconds on the supervisor's CPU, so
 * each user-notification round trip really costs that much more while
 * ptrace, in-kernel filters and the ping-pong floor run untouched.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <linux/seccomp.h>

#include "clock.h"

int ioctl(int fd, unsigned long request, ...);

static int (*real_ioctl)(int, unsigned long, void *);
static int64_t delay_ns = -1;

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, void *))dlsym(RTLD_NEXT, "ioctl");
	if (delay_ns < 0) {
		const char *s = getenv("KNOTIF_SEND_DELAY_NS");

		delay_ns = s ? strtoll(s, NULL, 10) : 0;
	}
	if (request == SECCOMP_IOCTL_NOTIF_SEND && delay_ns > 0) {
		int64_t until = now_ns() + delay_ns;

		while (now_ns() < until)
			;	/* busy: a sleep would hand the CPU to the target */
	}
	return real_ioctl(fd, request, arg);
}
