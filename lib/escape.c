// SPDX-License-Identifier: GPL-2.0
#include "escape.h"

#include <stdbool.h>
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

char *escape_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char *out = malloc(4 * strlen((const char *)p) + 1), *o = out;

	if (!out)
		abort();
	while (*p) {
		size_t n = utf8_len(p);
		bool c1 = n == 2 && p[0] == 0xc2 && p[1] < 0xa0;	/* U+0080..U+009F */

		if (n == 1 && *p == '\\') {
			o += sprintf(o, "\\\\");
		} else if (n == 1 && (*p < 0x20 || *p == 0x7f)) {
			if (*p == '\n')
				o += sprintf(o, "\\n");
			else if (*p == '\t')
				o += sprintf(o, "\\t");
			else if (*p == '\r')
				o += sprintf(o, "\\r");
			else
				o += sprintf(o, "\\x%02x", *p);
		} else if (!n || c1) {
			for (size_t i = 0; i < (n ? n : 1); i++)
				o += sprintf(o, "\\x%02x", p[i]);
			p += n ? n : 1;
			continue;
		} else {
			memcpy(o, p, n);
			o += n;
		}
		p += n;
	}
	*o = 0;
	return out;
}
