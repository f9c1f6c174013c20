// SPDX-License-Identifier: GPL-2.0
#include "store.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "why.h"

/*
 * The length of uri's scheme, RFC 3986 style: a letter, then letters,
 * digits, + - or ., then ':' (in the first path component: a scheme has no
 * '/', so ./a:b.db has none). 0 when uri has no scheme.
 */
static size_t scheme_len(const char *uri)
{
	size_t n = 0;

	if (!isalpha((unsigned char)uri[0]))
		return 0;
	while (uri[n] && (isalnum((unsigned char)uri[n]) || strchr("+-.", uri[n])))
		n++;
	return uri[n] == ':' ? n : 0;
}

static bool is_scheme(const char *uri, size_t n, const char *scheme)
{
	return n == strlen(scheme) && !strncasecmp(uri, scheme, n);
}

int store_open(struct store **out, const char *uri, bool create, char *why, size_t len)
{
	size_t n = scheme_len(uri);
	bool pg = is_scheme(uri, n, "postgresql") || is_scheme(uri, n, "postgres");
	bool sqlite = is_scheme(uri, n, "sqlite");
	const char *path;
	struct store *s;
	int err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->uri = strdup(uri))) {
		free(s);
		return why_fail(-ENOMEM, why, len, "out of memory");
	}
	/* libpq knows its schemes in lower case only: PostgreSQL:// would be a database name */
	for (size_t i = 0; pg && i < n; i++)
		s->uri[i] = (char)tolower((unsigned char)s->uri[i]);
	store_mask_uri(s->uri, s->where_buf, sizeof(s->where_buf));
	s->where = s->where_buf;
	path = sqlite ? s->uri + n + 1 : s->uri;
	if (pg && strncmp(uri + n + 1, "//", 2)) {
		err = why_fail(-EINVAL, why, len, "--db '%s': a PostgreSQL URI starts %.*s://", s->where, (int)n,
			       s->uri);
	} else if (n && !pg && !sqlite) {
		/* a mistyped URI must not make a local file that gets the fleet's runs */
		err = why_fail(-EINVAL, why, len,
			       "--db '%s': unknown scheme '%.*s:' (expected PATH, sqlite:PATH or postgresql://...; a file named so: ./%s)",
			       s->where, (int)n, s->uri, s->where);
	} else if (!pg && (!*path || !strcmp(path, ":memory:"))) {
		/* SQLite makes "" a temporary file and ":memory:" RAM: both vanish at exit */
		err = why_fail(-EINVAL, why, len,
			       "--db '%s' cannot keep a history: it would vanish when knotif-history exits (give a file or a postgresql:// URI)",
			       s->where);
	} else {
		err = pg ? store_pg_open(s, s->uri, why, len) : store_sqlite_open(s, path, create, why, len);
	}
	if (err) {
		free(s->uri);
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
	free(s->uri);
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
