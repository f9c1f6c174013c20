// SPDX-License-Identifier: GPL-2.0
#include "class.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ", NAME TARGET/SUPERVISOR" */
static void append(char *buf, size_t len, size_t *at, const char *name, long long t, long long s)
{
	int n;

	if (*at >= len)
		return;
	n = snprintf(buf + *at, len - *at, ", %s %lld/%lld", name, t, s);
	if (n > 0)
		*at += (size_t)n;
}

void history_machine_class(const struct gb_file *run, char *buf, size_t len)
{
	json_t *pl = json_object_get(json_object_get(run->context, "knotif"), "placements");
	json_t *ncpu = json_object_get(run->context, "num_cpus");
	const char *cpu = gb_knotif_str(run, "cpu_model"), *kernel = gb_knotif_str(run, "kernel_release");
	const char *keys[8];
	size_t n = 0, at;
	const char *key;
	json_t *v;

	if (json_is_integer(ncpu))
		at = (size_t)snprintf(buf, len, "%s, %lld CPUs, Linux %s", *cpu ? cpu : "?",
				      (long long)json_integer_value(ncpu), *kernel ? kernel : "?");
	else
		at = (size_t)snprintf(buf, len, "%s, ? CPUs, Linux %s", *cpu ? cpu : "?", *kernel ? kernel : "?");
	if (at >= len)
		return;
	/* placements in name order, so two files that list them differently agree */
	json_object_foreach(pl, key, v)
		if (n < sizeof(keys) / sizeof(keys[0]))
			keys[n++] = key;
	qsort(keys, n, sizeof(keys[0]), by_key);
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_object_get(pl, keys[i]);

		append(buf, len, &at, keys[i],
		       (long long)json_integer_value(json_object_get(p, "target_cpu")),
		       (long long)json_integer_value(json_object_get(p, "supervisor_cpu")));
	}
}
