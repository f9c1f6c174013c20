/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_RUN_DEVICE_POLICY_H
#define KNOTIF_RUN_DEVICE_POLICY_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Which device nodes knotif-run --emulate=mknod creates for the command:
 * a list of (type, major, minor), nothing else. The default is the
 * seeds' article's: the character devices a container needs and the
 * overlay whiteout (c 0:0). --policy=FILE replaces it, one rule a line:
 *
 *   # comment
 *   c 1:3 null        TYPE MAJOR:MINOR [NAME]: TYPE c (character) or b
 *   b 7:*  loop       (block); MINOR * for every minor of MAJOR
 */
#define DEVICE_POLICY_MAX 256

struct device_rule {
	char type;		/* 'c' or 'b' */
	unsigned int major;
	int minor;		/* -1: any */
	char name[32];
};

struct device_policy {
	struct device_rule rule[DEVICE_POLICY_MAX];
	int n;
	const char *source;	/* the file, or "default" */
};

void device_policy_default(struct device_policy *p);
/*
 * Reads path into p. 0, or -1 with one line ("FILE:LINE: what is wrong")
 * in why: the caller makes it a usage error before the command starts.
 */
int device_policy_load(struct device_policy *p, const char *path, char *why, size_t why_len);
/* Is a node of type mode & S_IFMT (S_IFCHR, S_IFBLK) and this number on the list? */
const struct device_rule *device_policy_find(const struct device_policy *p, mode_t type,
					     unsigned int major, unsigned int minor);

#endif
