// SPDX-License-Identifier: GPL-2.0
#include "cpu.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static const char *const names[PLACEMENT_COUNT] = {
	[PLACEMENT_SAME] = "same",
	[PLACEMENT_CROSS] = "cross",
	[PLACEMENT_FREE] = "free",
};

static cpu_set_t initial_mask;
static bool have_initial_mask;

void cpu_init(void)
{
	have_initial_mask = sched_getaffinity(0, sizeof(initial_mask), &initial_mask) == 0;
}

const char *placement_name(enum placement p)
{
	return p < PLACEMENT_COUNT ? names[p] : "?";
}

int placement_parse(const char *name, enum placement *out)
{
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		if (!strcmp(name, names[p])) {
			*out = (enum placement)p;
			return 0;
		}
	}
	return -EINVAL;
}

int placement_cpus(enum placement p, int cpus[2], char *why, unsigned long why_len)
{
	int found = 0, first[2] = { -1, -1 };

	if (!have_initial_mask)
		cpu_init();
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &initial_mask))
			first[found++] = c;
	cpus[0] = cpus[1] = -1;
	switch (p) {
	case PLACEMENT_SAME:
		cpus[0] = cpus[1] = first[0];
		return 0;
	case PLACEMENT_CROSS:
		if (found < 2) {
			snprintf(why, why_len, "cross placement needs 2 CPUs, the affinity mask allows %d", found);
			return -ENODEV;
		}
		cpus[0] = first[0];
		cpus[1] = first[1];
		return 0;
	default:
		return 0;
	}
}

int pin_to(int cpu)
{
	cpu_set_t set;

	if (cpu < 0) {
		if (!have_initial_mask)
			return 0;
		set = initial_mask;
	} else {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
	}
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}
