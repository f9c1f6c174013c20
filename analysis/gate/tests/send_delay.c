// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for the gate's end-to-end test: a real slowdown of a
 * seccomp supervisor, not an edited number. Before every
 * SECCOMP_IOCTL_NOTIF_SEND the supervisor spins for KNOTIF_SEND_SLOWDOWN
 * (e.g. 1.0) times the median of its last 15 notification cycles (from one
 * RECV returning to the next, minus the spin it added), so each user
 * notification round trip takes (1 + KNOTIF_SEND_SLOWDOWN)x as long as it
 * does under the machine's present conditions, even when other work on the
 * machine makes wake-ups dearer or cheaper from one second to the next.
 * ptrace, in-kernel filters and the ping-pong floor run untouched.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/seccomp.h>

#include "clock.h"

#define RING 15			/* cycles the median is taken over */
#define MAX_SPIN_NS 1000000	/* a cycle that spans a repetition's setup is no round trip */

int ioctl(int fd, unsigned long request, ...);

static int (*real_ioctl)(int, unsigned long, void *);
static double slowdown = -1;
static __thread int64_t ring[RING], last_recv, last_spin;
static __thread unsigned int filled, next;

static int64_t median_cycle(void)
{
	int64_t v[RING];

	memcpy(v, ring, sizeof(v));
	for (unsigned int i = 1; i < filled; i++)	/* insertion sort: 15 values */
		for (unsigned int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int64_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[filled / 2];
}

static void spin(void)
{
	int64_t start = now_ns(), want = (int64_t)(slowdown * (double)median_cycle());

	if (want > MAX_SPIN_NS)
		want = MAX_SPIN_NS;
	while (now_ns() - start < want)
		;	/* busy: a sleep would hand the CPU to the target */
	last_spin = now_ns() - start;
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, void *))dlsym(RTLD_NEXT, "ioctl");
	if (slowdown < 0) {
		const char *s = getenv("KNOTIF_SEND_SLOWDOWN");

		slowdown = s ? strtod(s, NULL) : 0;
	}
	if (request == SECCOMP_IOCTL_NOTIF_SEND && slowdown > 0 && filled >= 5)
		spin();
	ret = real_ioctl(fd, request, arg);
	if (request == SECCOMP_IOCTL_NOTIF_RECV && ret == 0) {
		int64_t now = now_ns();

		if (last_recv) {
			ring[next] = now - last_recv - last_spin;
			next = (next + 1) % RING;
			filled += filled < RING;
		}
		last_recv = now;
		last_spin = 0;
	}
	return ret;
}
