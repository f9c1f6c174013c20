// SPDX-License-Identifier: GPL-2.0
#include "cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is every comma-separated item of want one of have's? */
static bool all_in(const char *want, const char *have)
{
	char w[256], h[512], *save, *item;

	snprintf(w, sizeof(w), "%s", want);
	for (item = strtok_r(w, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *save2, *x;
		bool found = false;

		snprintf(h, sizeof(h), "%s", have);
		for (x = strtok_r(h, ",", &save2); x && !found; x = strtok_r(NULL, ",", &save2))
			found = !strcmp(x, item);
		if (!found)
			return false;
	}
	return true;
}

/* Lines of any length (getline): a long one split would read its tail as another mount. */
int cgroup_mounts(struct cgroup_mount *m, int max)
{
	char *line = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -errno;
	while (n >= 0 && getline(&line, &cap, f) > 0) {
		struct cgroup_mount c;
		char root[512], fstype[16];
		const char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %511s %511s", root, c.point) != 2 ||
		    sscanf(sep + 3, "%15s %*s %255s", fstype, c.super) != 2 || strcmp(root, "/"))
			continue;
		c.v2 = !strcmp(fstype, "cgroup2");
		if (!c.v2 && strcmp(fstype, "cgroup"))
			continue;
		if (n == max)
			n = -E2BIG;
		else
			m[n++] = c;
	}
	free(line);
	fclose(f);
	return n;
}

const struct cgroup_mount *cgroup_hierarchy(const struct cgroup_mount *m, int n, const char *controllers)
{
	for (int i = 0; i < n; i++)
		if (*controllers ? !m[i].v2 && all_in(controllers, m[i].super) : m[i].v2)
			return &m[i];
	return NULL;
}

int cgroup_line(char *line, char **controllers, char **path)
{
	char *c = strchr(line, ':'), *p = c ? strchr(c + 1, ':') : NULL;

	if (!p)
		return -EPROTO;
	*p++ = '\0';
	*controllers = c + 1;
	*path = p;
	return 0;
}
