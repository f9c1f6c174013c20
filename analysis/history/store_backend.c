// SPDX-License-Identifier: GPL-2.0
#include "store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the password in uri's user:PASSWORD@, its length in *n; NULL when there is none */
static const char *userinfo_password(const char *uri, size_t *n)
{
	const char *scheme = strstr(uri, "://"), *at, *colon;

	at = scheme ? strchr(scheme + 3, '@') : NULL;
	colon = at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
	if (!colon)
		return NULL;
	*n = (size_t)(at - colon - 1);
	return colon + 1;
}

/* the value of the password= after from, its length in *n; NULL when there is none */
static const char *password_param(const char *from, size_t *n)
{
	const char *pw = strstr(from, "password=");

	if (!pw)
		return NULL;
	pw += strlen("password=");
	*n = strcspn(pw, "&");
	return pw;
}

/*
 * text's n bytes at p replaced by with: the position after it, or NULL
 * when it would not fit in len and text was cut at p instead (never the
 * secret, whatever is lost).
 */
static char *replace_span(char *text, size_t len, char *p, size_t n, const char *with)
{
	size_t wn = strlen(with), tail = strlen(p + n);

	if ((size_t)(p - text) + wn + tail + 1 > len) {
		*p = 0;
		return NULL;
	}
	memmove(p + wn, p + n, tail + 1);
	memcpy(p, with, wn);
	return p + wn;
}

/* every occurrence in text of what[0..n) replaced by with */
static void replace_all(char *text, size_t len, const char *what, size_t n, const char *with)
{
	char *p = text;

	while (n && p && (p = memmem(p, strlen(p), what, n)))
		p = replace_span(text, len, p, n, with);
}

void store_mask_uri(const char *uri, char *buf, size_t len)
{
	const char *pw;
	size_t n;

	snprintf(buf, len, "%s", uri);
	if ((pw = userinfo_password(uri, &n)))
		snprintf(buf, len, "%.*s***%s", (int)(pw - uri), uri, pw + n);
	for (char *p = buf; p && (pw = password_param(p, &n));)
		p = replace_span(buf, len, buf + (pw - buf), n, "***");
}

void store_mask_text(const struct store *s, char *text, size_t len)
{
	const char *pw;
	size_t n;

	replace_all(text, len, s->uri, strlen(s->uri), s->where);
	if ((pw = userinfo_password(s->uri, &n)))
		replace_all(text, len, pw, n, "***");
	for (const char *p = s->uri; (pw = password_param(p, &n)); p = pw + n)
		replace_all(text, len, pw, n, "***");
}

void store_rows_free(struct store_rows *rows)
{
	for (size_t i = 0; i < rows->nrows * rows->ncols; i++)
		free(rows->cells[i]);
	free(rows->cells);
	memset(rows, 0, sizeof(*rows));
}
