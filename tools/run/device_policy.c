// SPDX-License-Identifier: GPL-2.0
#include "device_policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The article's list: what a container's /dev needs, and overlayfs's whiteout. */
static const struct device_rule defaults[] = {
	{ 'c', 1, 3, "null" }, { 'c', 1, 5, "zero" }, { 'c', 1, 7, "full" },
	{ 'c', 1, 8, "random" }, { 'c', 1, 9, "urandom" }, { 'c', 5, 0, "tty" },
	{ 'c', 0, 0, "whiteout" },
};

void device_policy_default(struct device_policy *p)
{
	p->n = (int)(sizeof(defaults) / sizeof(defaults[0]));
	memcpy(p->rule, defaults, sizeof(defaults));
	p->source = "default";
}

/* A decimal number below 2^20 (a major, or a minor's upper bound: the kernel's 20 bits) */
static int parse_number(const char *s, const char *end, unsigned int *out)
{
	unsigned long v = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v >= 1UL << 20)
			return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/* One rule from line (comments and blanks already gone); NULL or what is wrong. */
static const char *parse_rule(char *line, struct device_rule *r)
{
	char *type = strtok(line, " \t"), *number = strtok(NULL, " \t");
	char *name = strtok(NULL, " \t"), *colon;
	unsigned int major, minor;

	if (!type || strlen(type) != 1 || (type[0] != 'c' && type[0] != 'b'))
		return "expected a type: c (character device) or b (block device)";
	if (!number || !(colon = strchr(number, ':')))
		return "expected MAJOR:MINOR after the type";
	if (parse_number(number, colon, &major))
		return "the major is not a number below 1048576";
	if (!strcmp(colon + 1, "*"))
		r->minor = -1;
	else if (parse_number(colon + 1, colon + strlen(colon), &minor) || minor > 0xfffff)
		return "the minor is neither * nor a number below 1048576";
	else
		r->minor = (int)minor;
	if (major > 0xfff)
		return "the major is above 4095";
	if (name && strlen(name) >= sizeof(r->name))
		return "the name is longer than 31 bytes";
	if (strtok(NULL, " \t"))
		return "more than TYPE MAJOR:MINOR NAME on the line";
	r->type = type[0];
	r->major = major;
	snprintf(r->name, sizeof(r->name), "%s", name ? name : "");
	return NULL;
}

int device_policy_load(struct device_policy *p, const char *path, char *why, size_t why_len)
{
	char line[512];
	int lineno = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	p->n = 0;
	p->source = path;
	while (fgets(line, sizeof(line), f)) {
		const char *wrong;
		char *hash = strchr(line, '#'), *s = line;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(why, why_len, "%s:%d: a line longer than %zu bytes", path, lineno,
				 sizeof(line) - 2);
			goto bad;
		}
		if (hash)
			*hash = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		if (p->n == DEVICE_POLICY_MAX) {
			snprintf(why, why_len, "%s:%d: more than %d rules", path, lineno, DEVICE_POLICY_MAX);
			goto bad;
		}
		s[strcspn(s, "\r\n")] = '\0';
		wrong = parse_rule(s, &p->rule[p->n]);
		if (wrong) {
			snprintf(why, why_len, "%s:%d: %s", path, lineno, wrong);
			goto bad;
		}
		p->n++;
	}
	if (ferror(f)) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		goto bad;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	return -1;
}

const struct device_rule *device_policy_find(const struct device_policy *p, mode_t type,
					     unsigned int major, unsigned int minor)
{
	char want = type == S_IFCHR ? 'c' : type == S_IFBLK ? 'b' : 0;

	for (int i = 0; want && i < p->n; i++) {
		const struct device_rule *r = &p->rule[i];

		if (r->type == want && r->major == major && (r->minor < 0 || (unsigned int)r->minor == minor))
			return r;
	}
	return NULL;
}
