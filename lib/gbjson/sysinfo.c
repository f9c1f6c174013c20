// SPDX-License-Identifier: GPL-2.0
#include "sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* value of the first "key : value" line of /proc/cpuinfo */
static int cpuinfo_field(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	size_t klen = strlen(key);
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, klen) || (line[klen] != ' ' && line[klen] != '\t'))
			continue;
		colon++;
		while (*colon == ' ')
			colon++;
		colon[strcspn(colon, "\n")] = 0;
		snprintf(buf, len, "%s", colon);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

const char *sysinfo_cpu_model(void)
{
	static char model[256];

	if (!model[0] && cpuinfo_field("model name", model, sizeof(model)))
		snprintf(model, sizeof(model), "unknown");
	return model;
}

long sysinfo_cpu_mhz(void)
{
	char buf[64];

	return cpuinfo_field("cpu MHz", buf, sizeof(buf)) ? 0 : (long)(atof(buf) + 0.5);
}

bool sysinfo_cpu_scaling(void)
{
	char gov[64];

	if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", gov, sizeof(gov)))
		return false;
	return strcmp(gov, "performance") != 0;
}

const char *sysinfo_clocksource(void)
{
	static char src[64];

	if (!src[0] &&
	    read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", src, sizeof(src)))
		snprintf(src, sizeof(src), "unknown");
	return src;
}

bool sysinfo_clock_in_vdso(void)
{
	const char *src = sysinfo_clocksource();

	/* the x86 vDSO reads these; others (hpet, acpi_pm, jiffies) fall back to a syscall */
	return !strcmp(src, "tsc") || !strcmp(src, "kvm-clock") || !strcmp(src, "hyperv_clocksource_tsc_page") ||
	       !strcmp(src, "arch_sys_counter") || !strcmp(src, "unknown");
}

json_t *sysinfo_caches(void)
{
	json_t *caches = json_array();

	for (int i = 0; i < 8; i++) {
		char path[128], type[32], level[16], size[32], shared[256];
		long kib;
		int sharing = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (read_line(path, type, sizeof(type)))
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (read_line(path, level, sizeof(level)))
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (read_line(path, size, sizeof(size)))
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
		if (!read_line(path, shared, sizeof(shared))) {
			/* "0-1,4" → count the CPUs */
			for (char *tok = strtok(shared, ","); tok; tok = strtok(NULL, ",")) {
				int a, b;

				if (sscanf(tok, "%d-%d", &a, &b) == 2)
					sharing += b - a + 1;
				else
					sharing++;
			}
		}
		kib = atol(size) * (strchr(size, 'M') ? 1024 : 1);
		json_array_append_new(caches, json_pack("{s:s,s:i,s:I,s:i}", "type", type, "level", atoi(level),
							"size", (json_int_t)kib * 1024, "num_sharing", sharing));
	}
	return caches;
}

long sysinfo_locked_kb(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}
