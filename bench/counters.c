// SPDX-License-Identifier: GPL-2.0
#include "counters.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"

/* what perf counts (the first PERF_COUNTS), then what only procfs says */
enum { SWITCHES, MIGRATIONS, CPU_NS, PERF_COUNTS, PREEMPTIONS = PERF_COUNTS, READINGS };

_Static_assert(sizeof(((struct counters *)0)->start[0]) == READINGS * sizeof(int64_t),
	       "counters.h's start[][] holds every reading");

static const uint64_t perf_events[PERF_COUNTS] = {
	[SWITCHES] = PERF_COUNT_SW_CONTEXT_SWITCHES,
	[MIGRATIONS] = PERF_COUNT_SW_CPU_MIGRATIONS,
	[CPU_NS] = PERF_COUNT_SW_TASK_CLOCK,
};

static const char *const source_name[COUNTERS_SOURCE_COUNT] = {
	[COUNTERS_PROCFS] = "procfs",
	[COUNTERS_PERF] = "perf_event",
};

const char *counters_source_name(enum counters_source s)
{
	return source_name[s];
}

int counters_source_parse(const char *name, enum counters_source *s)
{
	if (!strcmp(name, "procfs"))
		*s = COUNTERS_PROCFS;
	else if (!strcmp(name, "perf") || !strcmp(name, "perf_event"))
		*s = COUNTERS_PERF;
	else
		return -1;
	return 0;
}

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

static bool open_perf(struct counters *c)
{
	for (int p = 0; p < 2; p++)
		for (int e = 0; e < PERF_COUNTS; e++) {
			c->fd[p][e] = open_sw(perf_events[e], c->pid[p]);
			if (c->fd[p][e] < 0)
				return false;
		}
	return true;
}

void counters_open(struct counters *c, enum counters_source wanted, pid_t supervisor)
{
	memset(c, 0, sizeof(*c));
	memset(c->fd, -1, sizeof(c->fd));
	c->pid[0] = getpid();
	c->pid[1] = supervisor;
	c->source = wanted;
	if (wanted == COUNTERS_PERF && !open_perf(c)) {
		counters_close(c);
		c->source = COUNTERS_PROCFS;
	}
	if (c->source == COUNTERS_PROCFS && clock_getcpuclockid(supervisor, &c->sup_clock))
		c->sup_clock = -1;
}

/* the value after "key:" in a /proc/PID file of "key: value" lines; -1 if absent */
static int64_t proc_field(pid_t pid, const char *file, const char *key)
{
	char path[64], line[256];
	size_t len = strlen(key);
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		while (*p == ' ')
			p++;
		if (!strncmp(p, key, len) && (p[len] == ':' || p[len] == ' ')) {
			p = strchr(p + len, ':');
			if (!p || sscanf(p + 1, "%lld", &v) != 1)
				v = -1;
			break;
		}
	}
	fclose(f);
	return v;
}

static void read_procfs(const struct counters *c, int64_t v[2][READINGS])
{
	for (int p = 0; p < 2; p++) {
		int64_t vol = proc_field(c->pid[p], "status", "voluntary_ctxt_switches");
		int64_t invol = proc_field(c->pid[p], "status", "nonvoluntary_ctxt_switches");

		v[p][SWITCHES] = vol < 0 || invol < 0 ? -1 : vol + invol;
		v[p][PREEMPTIONS] = invol;
		v[p][MIGRATIONS] = proc_field(c->pid[p], "sched", "se.nr_migrations");
		v[p][CPU_NS] = -1;
	}
	if (c->sup_clock != -1)
		v[1][CPU_NS] = clock_ns(c->sup_clock);
}

void counters_start(struct counters *c)
{
	if (c->source == COUNTERS_PROCFS) {
		read_procfs(c, c->start);
		return;
	}
	for (int p = 0; p < 2; p++)
		for (int e = 0; e < PERF_COUNTS; e++) {
			ioctl(c->fd[p][e], PERF_EVENT_IOC_RESET, 0);
			ioctl(c->fd[p][e], PERF_EVENT_IOC_ENABLE, 0);
		}
}

static int64_t read_count(int fd)
{
	uint64_t v;

	return read(fd, &v, sizeof(v)) == sizeof(v) ? (int64_t)v : -1;
}

/* target + supervisor, -1 if either is unknown */
static int64_t both(const int64_t n[2][READINGS], int e)
{
	return n[0][e] < 0 || n[1][e] < 0 ? -1 : n[0][e] + n[1][e];
}

void counters_stop(struct counters *c, struct counters_value *v)
{
	int64_t n[2][READINGS];

	if (c->source == COUNTERS_PROCFS) {
		read_procfs(c, n);
		for (int p = 0; p < 2; p++)
			for (int e = 0; e < READINGS; e++)
				n[p][e] = n[p][e] < 0 || c->start[p][e] < 0 ? -1 : n[p][e] - c->start[p][e];
	} else {
		for (int p = 0; p < 2; p++)
			for (int e = 0; e < PERF_COUNTS; e++)
				ioctl(c->fd[p][e], PERF_EVENT_IOC_DISABLE, 0);
		for (int p = 0; p < 2; p++) {
			for (int e = 0; e < PERF_COUNTS; e++)
				n[p][e] = read_count(c->fd[p][e]);
			n[p][PREEMPTIONS] = -1;
		}
	}
	v->ctx_switches = both(n, SWITCHES);
	v->preemptions = both(n, PREEMPTIONS);
	v->migrations = both(n, MIGRATIONS);
	v->sup_cpu_ns = n[1][CPU_NS];
}

void counters_close(struct counters *c)
{
	for (int p = 0; p < 2; p++)
		for (int e = 0; e < PERF_COUNTS; e++)
			if (c->fd[p][e] >= 0) {
				close(c->fd[p][e]);
				c->fd[p][e] = -1;
			}
}
