// SPDX-License-Identifier: GPL-2.0
#include "counters.h"

#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static const uint64_t events[3] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,
	PERF_COUNT_SW_TASK_CLOCK,
};

static int open_sw(uint64_t config, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.disabled = 1;
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

const char *counters_source_name(enum counters_source s)
{
	return s == COUNTERS_PERF ? "perf_event" : "getrusage";
}

void counters_open(struct counters *c, pid_t supervisor)
{
	pid_t who[2] = { 0, supervisor };

	memset(c, -1, sizeof(c->fd));
	c->source = COUNTERS_PERF;
	for (int p = 0; p < 2; p++) {
		for (int e = 0; e < 3; e++) {
			c->fd[p][e] = open_sw(events[e], who[p]);
			if (c->fd[p][e] < 0) {
				counters_close(c);
				c->source = COUNTERS_RUSAGE;
				return;
			}
		}
	}
}

static int64_t rusage_csw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (int64_t)ru.ru_nvcsw + ru.ru_nivcsw;
}

void counters_start(struct counters *c)
{
	if (c->source == COUNTERS_RUSAGE) {
		c->rusage_csw = rusage_csw();
		return;
	}
	for (int p = 0; p < 2; p++)
		for (int e = 0; e < 3; e++) {
			ioctl(c->fd[p][e], PERF_EVENT_IOC_RESET, 0);
			ioctl(c->fd[p][e], PERF_EVENT_IOC_ENABLE, 0);
		}
}

static int64_t read_count(int fd)
{
	uint64_t v;

	return read(fd, &v, sizeof(v)) == sizeof(v) ? (int64_t)v : -1;
}

void counters_stop(struct counters *c, struct counters_value *v)
{
	int64_t n[2][3];

	if (c->source == COUNTERS_RUSAGE) {
		v->ctx_switches = rusage_csw() - c->rusage_csw;
		v->migrations = -1;
		v->sup_cpu_ns = -1;
		return;
	}
	for (int p = 0; p < 2; p++)
		for (int e = 0; e < 3; e++)
			ioctl(c->fd[p][e], PERF_EVENT_IOC_DISABLE, 0);
	for (int p = 0; p < 2; p++)
		for (int e = 0; e < 3; e++)
			n[p][e] = read_count(c->fd[p][e]);
	v->ctx_switches = n[0][0] < 0 || n[1][0] < 0 ? -1 : n[0][0] + n[1][0];
	v->migrations = n[0][1] < 0 || n[1][1] < 0 ? -1 : n[0][1] + n[1][1];
	v->sup_cpu_ns = n[1][2];
}

void counters_close(struct counters *c)
{
	for (int p = 0; p < 2; p++)
		for (int e = 0; e < 3; e++)
			if (c->fd[p][e] >= 0) {
				close(c->fd[p][e]);
				c->fd[p][e] = -1;
			}
}
