// SPDX-License-Identifier: GPL-2.0
#include "escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* length of the valid UTF-8 sequence at s (1..4), 0 when it is not one */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong three- and four-byte forms, surrogates, beyond U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* the code point of a valid two- or three-byte sequence (the only ones hidden) */
static unsigned int code_point(const unsigned char *s, size_t n)
{
	if (n == 2)
		return (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu);
	return (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
}

/*
 * Invisible characters that move text: the bidi controls make a name read
 * backwards ("U+202E" turns "exe.txt" around) or drag the columns after it
 * along; a terminal may break the line at U+2028/U+2029.
 */
static bool moves_text(unsigned int cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* the escaped form of the character at *p into o (at most 8 bytes: a C1 character's \xc2\x85), *p moved past it; bytes written */
static size_t escape_char(const unsigned char **p, char *o)
{
	const unsigned char *c = *p;
	size_t n = utf8_len(c), w = 0;
	unsigned int cp;

	if (n == 1 && *c == '\\') {
		w = (size_t)sprintf(o, "\\\\");
	} else if (n == 1 && (*c < 0x20 || *c == 0x7f)) {
		if (*c == '\n')
			w = (size_t)sprintf(o, "\\n");
		else if (*c == '\t')
			w = (size_t)sprintf(o, "\\t");
		else if (*c == '\r')
			w = (size_t)sprintf(o, "\\r");
		else
			w = (size_t)sprintf(o, "\\x%02x", *c);
	} else if (!n || (n == 2 && c[0] == 0xc2 && c[1] < 0xa0)) {	/* not UTF-8, or C1 */
		n = n ? n : 1;
		for (size_t i = 0; i < n; i++)
			w += (size_t)sprintf(o + w, "\\x%02x", c[i]);
	} else if ((n == 2 || n == 3) && moves_text(cp = code_point(c, n))) {
		w = (size_t)sprintf(o, "\\u%04x", cp);
	} else {
		memcpy(o, c, n);
		w = n;
	}
	*p = c + n;
	return w;
}

char *escape_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	/* the most an input byte grows: one byte to \xNN, U+061C's two to \u061c */
	char *out = malloc(4 * strlen((const char *)p) + 1), *o = out;

	if (!out)
		abort();
	while (*p)
		o += escape_char(&p, o);
	*o = 0;
	return out;
}

/* bytes of the one shown character (a UTF-8 one or a whole escape) at e, escape_text's output */
static size_t unit_len(const char *e)
{
	size_t n = 1;

	if (e[0] == '\\')
		return e[1] == 'x' ? 4 : e[1] == 'u' ? 6 : 2;
	while ((e[n] & 0xc0) == 0x80)
		n++;
	return n;
}

/* columns of a unit: an escape is ASCII, a column a byte; a UTF-8 character is one */
static size_t unit_cols(const char *e, size_t len)
{
	return e[0] == '\\' ? len : 1;
}

size_t escape_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;	/* a UTF-8 character's first byte */
	return w;
}

/* FNV-1a, 32 bits: short, and the same in knotif-report (shown.py) */
static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

char *escape_elided(const char *s, size_t max)
{
	char *all = escape_text(s), *out, *o;
	size_t total = 0, head, tail, cols = 0, head_end = 0, tail_start = 0;
	static const size_t middle = 11;	/* "…#xxxxxxxx…" */

	if (max < ESCAPE_ELIDED_MIN)
		max = ESCAPE_ELIDED_MIN;
	total = escape_width(all);
	if (total <= max)
		return all;
	head = (max - middle) * 5 / 8;
	tail = max - middle - head;
	/* the head: whole units while they fit; the tail: from the first unit after which only tail columns are left */
	for (size_t i = 0, n, c; all[i]; i += n, cols += c) {
		n = unit_len(all + i);
		c = unit_cols(all + i, n);
		if (cols + c <= head)
			head_end = i + n;
		if (total - cols <= tail) {
			tail_start = i;
			break;
		}
		tail_start = i + n;
	}
	out = malloc(head_end + strlen(all + tail_start) + 2 * strlen("…") + 10);
	if (!out)
		abort();
	o = out;
	memcpy(o, all, head_end);
	o += head_end;
	o += sprintf(o, "…#%08x…%s", fnv1a(s ? s : ""), all + tail_start);
	free(all);
	return out;
}
