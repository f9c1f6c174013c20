// SPDX-License-Identifier: GPL-2.0
#include "mount_policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

/* mount(2)'s flags a new tmpfs may carry: each has a fsmount() attribute or is harmless */
#define ALLOWED_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | MS_NODIRATIME | \
		       MS_RELATIME | MS_STRICTATIME | MS_SILENT)

/* "64m" as tmpfs reads it (k, m, g, either case): 0, -EINVAL, or -EPERM for "50%" */
static int parse_amount(const char *s, unsigned long long *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case 'k': shift = 10; end++; break;
	case 'm': shift = 20; end++; break;
	case 'g': shift = 30; end++; break;
	case '%': return -EPERM;	/* a share of the host's memory */
	default: break;
	}
	if (*end || v > (~0ULL >> shift))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

/* One "key=value" of tmpfs's data against the list, into spec. */
static int check_option(char *opt, struct mount_spec *spec, char *why, size_t why_len)
{
	char *value = strchr(opt, '=');
	unsigned long long *amount = NULL, max = 0;
	int ret;

	if (value)
		*value++ = '\0';
	if (!strcmp(opt, "size")) {
		amount = &spec->size;
		max = MOUNT_MAX_SIZE;
	} else if (!strcmp(opt, "nr_inodes")) {
		amount = &spec->nr_inodes;
		max = MOUNT_MAX_INODES;
	} else if (!strcmp(opt, "mode") && value) {
		char *end;
		unsigned long mode = strtoul(value, &end, 8);

		if (!*value || *end || mode > 07777) {
			snprintf(why, why_len, "mode=%.40s is not an octal mode", value);
			return EINVAL;
		}
		spec->mode = (int)mode;
		return 0;
	} else {
		snprintf(why, why_len, "tmpfs option '%.40s' is not allowed (size, nr_inodes, mode are)", opt);
		return EPERM;
	}
	ret = value ? parse_amount(value, amount) : -EINVAL;
	if (ret == -EPERM) {
		snprintf(why, why_len, "%s as a share of memory is not allowed", opt);
		return EPERM;
	}
	if (ret) {
		snprintf(why, why_len, "%s=%.40s is not a number", opt, value ? value : "");
		return EINVAL;
	}
	if (*amount == 0 || *amount > max) {	/* 0 is tmpfs's "unlimited" */
		snprintf(why, why_len, "%s=%.40s is over the limit of %llu", opt, value, max);
		return EPERM;
	}
	return 0;
}

int mount_policy_check(const char *type, unsigned long flags, const char *data, struct mount_spec *spec,
		       char *why, size_t why_len)
{
	char options[4096];

	*spec = (struct mount_spec){ .type = "tmpfs", .size = MOUNT_MAX_SIZE, .nr_inodes = MOUNT_MAX_INODES,
				     .mode = -1,
				     .attr = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC };
	if (!type) {
		snprintf(why, why_len, "no filesystem type");
		return ENODEV;
	}
	if (strcmp(type, "tmpfs")) {
		snprintf(why, why_len, "filesystem type '%.40s' is not allowed (tmpfs is)", type);
		return EPERM;
	}
	/* no MS_MGC_VAL here: the filter leaves calls carrying it to the kernel (emulate_mount.c) */
	if (flags & ~(unsigned long)ALLOWED_FLAGS) {
		snprintf(why, why_len, "mount flags %#lx are not allowed", flags & ~(unsigned long)ALLOWED_FLAGS);
		return EPERM;
	}
	spec->rdonly = flags & MS_RDONLY;
	if (flags & MS_RDONLY)
		spec->attr |= MOUNT_ATTR_RDONLY;
	if (flags & MS_NOATIME)
		spec->attr |= MOUNT_ATTR_NOATIME;
	else if (flags & MS_STRICTATIME)
		spec->attr |= MOUNT_ATTR_STRICTATIME;
	if (flags & MS_NODIRATIME)
		spec->attr |= MOUNT_ATTR_NODIRATIME;
	if (!data)
		return 0;
	if (snprintf(options, sizeof(options), "%s", data) >= (int)sizeof(options)) {
		snprintf(why, why_len, "options longer than a page");
		return EINVAL;
	}
	for (char *save, *opt = strtok_r(options, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		int ret = check_option(opt, spec, why, why_len);

		if (ret)
			return ret;
	}
	return 0;
}
