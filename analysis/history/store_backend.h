/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_STORE_BACKEND_H
#define KNOTIF_HISTORY_STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What a history store is made of, and what each backend (store_sqlite.c,
 * store_pg.c) implements and shares: the store and its operations, the
 * rows a query returns, and the masking of a URI's password in messages.
 * store.h is the interface the history code calls; it picks the backend.
 */
struct store;

struct store_rows {
	size_t nrows, ncols;
	char **cells;		/* cells[r * ncols + c]; NULL for SQL NULL */
};

struct store_ops {
	const char *name;		/* "sqlite", "postgresql" */
	const char *id_column;		/* DDL of runs.id: an integer key the store assigns */
	const char *begin_write;	/* starts a transaction that will write a run */
	const char *begin_schema;	/* starts the transaction that creates or migrates the schema */
	const char *lock_schema;	/* then serialises it between clients; NULL: begin_schema does */
	int (*query)(struct store *s, const char *sql, int nparams, const char *const *params,
		     struct store_rows *out, char *why, size_t len);
	int (*has_table)(struct store *s, const char *table, char *why, size_t len);
	void (*close)(struct store *s);
};

struct store {
	const struct store_ops *ops;
	const char *where;	/* the path or URI, for messages (a password masked) */
	void *handle;		/* sqlite3 * or PGconn * */
	char *uri;		/* as the store was given it (a postgresql scheme in lower case) */
	int timeout_ms;		/* (PostgreSQL) the longest wait for one answer of the server */
	bool created;		/* (SQLite) this process made the file */
	bool storage_failed;	/* (SQLite) a -ENOSPC error happened */
	char where_buf[4096];
};

/* the backends: each fills s (ops, handle) or returns -errno with why */
int store_sqlite_open(struct store *s, const char *path, bool create, char *why, size_t len);
int store_pg_open(struct store *s, const char *uri, char *why, size_t len);

/*
 * text, a library's message about s's URI (libpq's quote parts of it or
 * all of it), made fit to print: the URI itself by its masked form
 * (s->where), then every occurrence of each of its passwords by ***. Cut
 * short when it would not fit in len.
 */
void store_mask_text(const struct store *s, char *text, size_t len);

/* uri for messages, into buf: its password (user:PASSWORD@, password=PASSWORD) as *** */
void store_mask_uri(const char *uri, char *buf, size_t len);
void store_rows_free(struct store_rows *rows);
static inline const char *store_cell(const struct store_rows *r, size_t row, size_t col)
{
	return r->cells[row * r->ncols + col];
}

#endif
