// SPDX-License-Identifier: GPL-2.0
#include "store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "why.h"

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* the URI for messages, its password (user:PASSWORD@ or password=PASSWORD) masked */
static void set_where(struct store *s, const char *uri)
{
	const char *scheme = strstr(uri, "://"), *at, *colon;
	char *pw, *end;

	snprintf(s->where_buf, sizeof(s->where_buf), "%s", uri);
	s->where = s->where_buf;
	if (!scheme)
		return;
	at = strchr(scheme + 3, '@');
	colon = at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
	if (colon)
		snprintf(s->where_buf, sizeof(s->where_buf), "%.*s:***%s",
			 (int)(colon - uri), uri, at);
	for (pw = strstr(s->where_buf, "password="); pw; pw = strstr(pw, "password=")) {
		pw += strlen("password=");
		end = pw + strcspn(pw, "&");
		memmove(pw + 3, end, strlen(end) + 1);
		memcpy(pw, "***", 3);
	}
}

int store_open(struct store **out, const char *uri, bool create, char *why, size_t len)
{
	struct store *s;
	const char *path = uri;
	int err;

	*out = NULL;
	if (has_prefix(uri, "sqlite:"))
		path = uri + strlen("sqlite:");
	/* SQLite makes "" a temporary file and ":memory:" RAM: both vanish at exit */
	if (!*path || !strcmp(path, ":memory:"))
		return why_fail(-EINVAL, why, len,
				"--db '%s' cannot keep a history: it would vanish when knotif-history exits (give a file or a postgresql:// URI)",
				uri);
	s = calloc(1, sizeof(*s));
	if (!s)
		return why_fail(-ENOMEM, why, len, "out of memory");
	set_where(s, uri);
	if (has_prefix(uri, "postgresql://") || has_prefix(uri, "postgres://"))
		err = store_pg_open(s, uri, why, len);
	else
		err = store_sqlite_open(s, path, create, why, len);
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	s->ops->close(s);
	free(s);
}

int store_query(struct store *s, const char *sql, int nparams, const char *const *params,
		struct store_rows *out, char *why, size_t len)
{
	struct store_rows ignored;
	int err = s->ops->query(s, sql, nparams, params, out ? out : &ignored, why, len);

	if (!out && !err)
		store_rows_free(&ignored);
	return err;
}

int store_exec(struct store *s, const char *sql, char *why, size_t len)
{
	return store_query(s, sql, 0, NULL, NULL, why, len);
}

void store_rows_free(struct store_rows *rows)
{
	for (size_t i = 0; i < rows->nrows * rows->ncols; i++)
		free(rows->cells[i]);
	free(rows->cells);
	memset(rows, 0, sizeof(*rows));
}
